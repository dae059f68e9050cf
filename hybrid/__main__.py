import sys

from hybrid.cli.main import main

sys.exit(main())
