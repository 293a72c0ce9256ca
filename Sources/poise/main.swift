import PoiseCLI

PoiseCommand.main()
