#!/bin/sh
# A hook that crashed, as Claude Code sees one: it reads its input and exits 0, silent (every hook fails open).
cat > /dev/null
exit 0
