"""The machine a figure was measured on: what benchmarks and the evaluation record beside their numbers.

Owns: cpu_model (the CPU's model name from /proc/cpuinfo, or platform's guess where there is none).
Knows nothing about models or results.
"""

import platform

__all__ = ["cpu_model"]


def cpu_model() -> str:
    """The CPU's model name ("AMD EPYC ..."); platform's processor or machine name where /proc/cpuinfo is absent."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"
