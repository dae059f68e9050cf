"""What every benchmark result records about the machine it ran on (these machines differ and are shared)."""

import os
import platform


def machine() -> dict:
    """CPU model, cores, torch threads and the load average now."""
    import torch

    model = platform.processor() or platform.machine()
    try:
        model = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return {"cpu_model": model, "cores": os.cpu_count(), "threads": torch.get_num_threads(),
            "load_average": [round(x, 2) for x in os.getloadavg()]}
