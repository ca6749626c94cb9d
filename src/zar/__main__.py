import sys

from zar.cli import main

sys.exit(main())
