// icount: exact dynamic instruction count per call of one function, by ptrace single-stepping.
//   icount SYMBOL_OFFSET_HEX CALLS SKIP -- program args...
// Puts a breakpoint at the function (offset in the main executable, as `nm` prints it), skips
// the first SKIP calls, then single-steps CALLS calls until each returns and prints the mean
// instructions per call (callees included) and a per-address histogram to icount.hist.
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

static uint64_t base_of(pid_t pid, const char *exe) {
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/%d/maps", pid);
    FILE *f = fopen(path, "r");
    uint64_t base = 0;
    while (fgets(line, sizeof line, f)) {
        if (strstr(line, exe)) { base = strtoull(line, NULL, 16); break; }
    }
    fclose(f);
    return base;
}

typedef struct { uint64_t addr; uint64_t count; } Bin;
static Bin *bins; static size_t nbins, capbins;
static void hist(uint64_t a) {
    // open addressing hash
    if (nbins * 2 >= capbins) {
        size_t nc = capbins ? capbins * 2 : 1 << 16;
        Bin *nb = calloc(nc, sizeof(Bin));
        for (size_t i = 0; i < capbins; i++) if (bins[i].count) {
            size_t h = (bins[i].addr * 0x9E3779B97F4A7C15ull) & (nc - 1);
            while (nb[h].count) h = (h + 1) & (nc - 1);
            nb[h] = bins[i];
        }
        free(bins); bins = nb; capbins = nc;
    }
    size_t h = (a * 0x9E3779B97F4A7C15ull) & (capbins - 1);
    while (bins[h].count && bins[h].addr != a) h = (h + 1) & (capbins - 1);
    if (!bins[h].count) { bins[h].addr = a; nbins++; }
    bins[h].count++;
}

int main(int argc, char **argv) {
    if (argc < 6) { fprintf(stderr, "usage: icount OFFSET CALLS SKIP -- prog args\n"); return 2; }
    uint64_t offset = strtoull(argv[1], NULL, 16);
    long calls = atol(argv[2]), skip = atol(argv[3]);
    char **prog = argv + 5;
    pid_t pid = fork();
    if (pid == 0) {
        ptrace(PTRACE_TRACEME, 0, 0, 0);
        execv(prog[0], prog);
        perror("execv"); _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);  // stopped at exec
    const char *exe = strrchr(prog[0], '/'); exe = exe ? exe + 1 : prog[0];
    uint64_t base = base_of(pid, exe);
    uint64_t target = base + offset;
    // If the binary is not PIE, the offset is already absolute.
    if (offset >= base) target = offset;
    errno = 0;
    long orig = ptrace(PTRACE_PEEKTEXT, pid, (void *)target, 0);
    if (errno) { perror("peek"); return 1; }
    long withBreak = (orig & ~0xffL) | 0xcc;
    ptrace(PTRACE_POKETEXT, pid, (void *)target, (void *)withBreak);
    long seen = 0, measured = 0;
    uint64_t total = 0;
    for (;;) {
        ptrace(PTRACE_CONT, pid, 0, 0);
        waitpid(pid, &status, 0);
        if (WIFEXITED(status) || WIFSIGNALED(status)) break;
        if (WSTOPSIG(status) != SIGTRAP) { ptrace(PTRACE_CONT, pid, 0, (void *)(long)WSTOPSIG(status)); waitpid(pid, &status, 0); continue; }
        struct user_regs_struct r;
        ptrace(PTRACE_GETREGS, pid, 0, &r);
        if (r.rip - 1 != target) { fprintf(stderr, "unexpected trap at %llx\n", r.rip); break; }
        r.rip = target;
        ptrace(PTRACE_SETREGS, pid, 0, &r);
        ptrace(PTRACE_POKETEXT, pid, (void *)target, (void *)orig);
        seen++;
        if (seen > skip) {
            uint64_t entrySp = r.rsp;
            uint64_t n = 0;
            for (;;) {
                hist(r.rip - base);
                ptrace(PTRACE_SINGLESTEP, pid, 0, 0);
                waitpid(pid, &status, 0);
                n++;
                ptrace(PTRACE_GETREGS, pid, 0, &r);
                if (r.rsp > entrySp) break;  // returned (ret pops the return address)
            }
            total += n;
            measured++;
            if (measured >= calls) {
                printf("calls %ld instructions %llu per call %.2f\n", measured, (unsigned long long)total, (double)total / measured);
                FILE *h = fopen("icount.hist", "w");
                for (size_t i = 0; i < capbins; i++) if (bins[i].count) fprintf(h, "%llx %llu\n", (unsigned long long)bins[i].addr, (unsigned long long)bins[i].count);
                fclose(h);
                kill(pid, SIGKILL);
                return 0;
            }
        } else {
            ptrace(PTRACE_SINGLESTEP, pid, 0, 0);
            waitpid(pid, &status, 0);
        }
        ptrace(PTRACE_POKETEXT, pid, (void *)target, (void *)withBreak);
    }
    printf("calls %ld instructions %llu per call %.2f (process ended)\n", measured, (unsigned long long)total, measured ? (double)total / measured : 0);
    return 0;
}
