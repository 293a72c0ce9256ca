#!/usr/bin/env python3
"""Writes the manual page poise(1) from the tool's own description of its arguments.

    scripts/make_man_page.py PATH/TO/poise OUT.1

Reads `poise --experimental-dump-help` (swift-argument-parser's ToolInfo JSON: every command,
its abstract and discussion, its arguments with names, value names, defaults and help) and
writes one roff page: NAME, SYNOPSIS, DESCRIPTION, the options of `poise`, then one subsection
per subcommand (nested ones included) with its synopsis, description and options. The page date
is left out so that the output depends only on the tool.
"""
import json
import os
import subprocess
import sys


def escape(text):
    """Plain text as roff: backslashes, leading dots and quotes, hyphens in options kept literal."""
    text = (text or "").replace("\\", "\\e").replace("-", "\\-")
    lines = []
    for line in text.splitlines() or [""]:
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def names(argument):
    shown = []
    for name in argument.get("names", []):
        dashes = "--" if name["kind"] == "long" else "-"
        shown.append(dashes + name["name"])
    return shown


def usage(argument):
    """`--name <value>` or `<value>` for the synopsis and the option list."""
    value = argument.get("valueName") or "value"
    if argument["kind"] == "positional":
        text = f"<{value}>"
    elif argument["kind"] == "flag":
        text = ", ".join(names(argument))
    else:
        text = ", ".join(f"{name} <{value}>" for name in names(argument))
    if argument.get("isRepeating"):
        text += " ..."
    return text


def visible(command):
    return [a for a in command.get("arguments", []) if a.get("shouldDisplay", True)]


def synopsis(path, command):
    parts = [f"\\fB{escape(' '.join(path))}\\fR"]
    for argument in visible(command):
        if argument["kind"] == "positional":
            text = f"<{argument.get('valueName') or 'value'}>"
        else:
            preferred = argument.get("preferredName") or argument["names"][0]
            dashes = "--" if preferred["kind"] == "long" else "-"
            text = dashes + preferred["name"]
            if argument["kind"] == "option":
                text += f" <{argument.get('valueName') or 'value'}>"
        if argument.get("isRepeating"):
            text += " ..."
        parts.append(escape(f"[{text}]" if argument.get("isOptional") else text))
    if command.get("subcommands"):
        parts.append("<subcommand>")
    return " ".join(parts)


def options(command):
    out = []
    for argument in visible(command):
        out.append(".TP")
        out.append(f"\\fB{escape(usage(argument))}\\fR")
        help_text = argument.get("abstract") or ""
        if argument.get("discussion"):
            help_text += "\n" + argument["discussion"]
        if argument.get("defaultValue") not in (None, ""):
            help_text += f" (default: {argument['defaultValue']})"
        out.append(escape(help_text.strip()) or "\\&")
    return out


def subcommands(path, command, out):
    for sub in command.get("subcommands", []):
        name = sub["commandName"]
        if name == "help":
            continue
        here = path + [name]
        out.append(f".SS {escape(' '.join(here))}")
        out.append(synopsis(here, sub))
        out.append(".PP")
        out.append(escape(sub.get("abstract", "")))
        if sub.get("discussion"):
            out.append(".PP")
            out.append(escape(sub["discussion"]))
        listed = options(sub)
        if listed:
            out.append(".PP")
            out.append("Options:")
            out.extend(listed)
        subcommands(here, sub, out)


def main():
    tool, destination = sys.argv[1], sys.argv[2]
    info = json.loads(subprocess.run([tool, "--experimental-dump-help"], check=True,
                                     capture_output=True, text=True).stdout)
    command = info["command"]
    version = subprocess.run([tool, "--version"], check=True, capture_output=True, text=True).stdout.strip()
    name = command["commandName"]
    out = [f'.TH {name.upper()} 1 "" "{escape(name)} {escape(version)}" "User Commands"',
           ".SH NAME", f"{escape(name)} \\- {escape(command.get('abstract', ''))}",
           ".SH SYNOPSIS", synopsis([name], command),
           ".SH DESCRIPTION", escape(command.get("abstract", ""))]
    if command.get("discussion"):
        out += [".PP", escape(command["discussion"])]
    out += [".SH OPTIONS"] + options(command)
    out.append(".SH COMMANDS")
    subcommands([name], command, out)
    out += [".SH SEE ALSO", "The documentation in the Poise source tree: README.md and docs/*.md."]
    with open(destination + ".tmp", "w", encoding="utf-8") as file:
        file.write("\n".join(out) + "\n")
    os.replace(destination + ".tmp", destination)


if __name__ == "__main__":
    main()
