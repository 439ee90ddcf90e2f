#!/usr/bin/env bash
# Build the standalone hulkforge app: packaging/dist/hulkforge/hulkforge (a one-folder PyInstaller bundle).
# Uses the current Python (it must have the project's dependencies and pyinstaller); set PYTHON to choose
# another, or pass --venv to build inside a fresh virtual environment at packaging/.venv.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
python=${PYTHON:-python3}

if [ "${1:-}" = "--venv" ]; then
  "$python" -m venv "$here/.venv"
  python="$here/.venv/bin/python"
  "$python" -m pip install -q --upgrade pip
  "$python" -m pip install -q "$root" pyinstaller
fi

"$python" -m PyInstaller --version >/dev/null 2>&1 || { echo "build.sh: pyinstaller is not installed for $python" >&2; exit 2; }
# The icons are generated from editor/resources/icon.svg; render them when missing or older than it.
if [ ! -f "$here/icons/hulkforge.ico" ] || [ "$root/editor/resources/icon.svg" -nt "$here/icons/hulkforge.ico" ]; then
  QT_QPA_PLATFORM=offscreen "$python" "$here/render_icons.py"
fi

cd "$here"
start=$(date +%s)
"$python" -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath "$here/dist" --workpath "$here/build" hulkforge.spec
# libpython from a pyenv/source build carries its debug symbols (~17 MB). Strip only that one library:
# stripping every .so breaks numpy's OpenBLAS ("ELF load command address/offset not page-aligned").
if command -v strip >/dev/null; then
  for lib in "$here"/dist/hulkforge/_internal/libpython3*.so*; do
    if [ -f "$lib" ] && [ ! -L "$lib" ]; then strip --strip-unneeded "$lib"; fi
  done
fi
"$here/dist/hulkforge/hulkforge" --version >/dev/null || { echo "build.sh: the bundle does not start" >&2; exit 1; }
echo "built $here/dist/hulkforge in $(( $(date +%s) - start )) s, $(du -sh "$here/dist/hulkforge" | cut -f1)"
