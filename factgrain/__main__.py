import sys

from factgrain.cli import main

sys.exit(main())
