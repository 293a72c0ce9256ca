import CPoiseCPU
import PoiseCLI

#if POISE_CHECK_CPU
// Built for x86-64-v3 (`make dist`): say what the CPU lacks before any code built for it runs.
poise_cpu_require_v3("poise")
#endif
PoiseCommand.main()
