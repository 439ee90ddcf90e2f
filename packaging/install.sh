#!/usr/bin/env bash
# Install hulkforge for the current user: the bundle, the desktop entry, the icons and the mission file type
# under ${XDG_DATA_HOME:-~/.local/share}, and a `hulkforge` link in ~/.local/bin.
#
#   packaging/install.sh [BUNDLE_DIR]   bundle to copy (default: packaging/dist/hulkforge, from build.sh)
#   packaging/install.sh --no-bundle    only the desktop integration, for a `hulkforge` already on PATH
#                                       (pip install); the desktop entry then runs that one
#   packaging/install.sh --uninstall    remove everything this script installed
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
data=${XDG_DATA_HOME:-$HOME/.local/share}
bindir=${HULKFORGE_BIN_DIR:-$HOME/.local/bin}
app="$data/hulkforge/app"
mime_name=application-x-hulkforge-mission
sizes="16 22 24 32 48 64 128 256"

refresh() {
  # The caches are optional: desktops rebuild them anyway, and the tools may be absent.
  if command -v update-mime-database >/dev/null; then update-mime-database "$data/mime" >/dev/null; fi
  if command -v update-desktop-database >/dev/null; then update-desktop-database -q "$data/applications" || true; fi
  if command -v gtk-update-icon-cache >/dev/null && [ -f "$data/icons/hicolor/index.theme" ]; then
    gtk-update-icon-cache -q -t "$data/icons/hicolor" || true
  fi
}

if [ "${1:-}" = "--uninstall" ]; then
  rm -rf "$data/hulkforge"
  rm -f "$data/applications/hulkforge.desktop" "$data/mime/packages/hulkforge.xml"
  for s in $sizes; do
    rm -f "$data/icons/hicolor/${s}x${s}/apps/hulkforge.png" "$data/icons/hicolor/${s}x${s}/mimetypes/$mime_name.png"
  done
  rm -f "$data/icons/hicolor/scalable/apps/hulkforge.svg" "$data/icons/hicolor/scalable/mimetypes/$mime_name.svg"
  if [ -L "$bindir/hulkforge" ] && [ "$(readlink "$bindir/hulkforge")" = "$app/hulkforge" ]; then
    rm -f "$bindir/hulkforge"
  fi
  mkdir -p "$data/mime" "$data/applications"
  refresh
  echo "hulkforge uninstalled from $data"
  exit 0
fi

if [ "${1:-}" = "--no-bundle" ]; then
  exe=$(command -v hulkforge) || { echo "install.sh: no hulkforge on PATH; build the bundle or pip install first" >&2; exit 2; }
else
  bundle=${1:-$here/dist/hulkforge}
  [ -x "$bundle/hulkforge" ] || { echo "install.sh: $bundle/hulkforge not found; run packaging/build.sh first" >&2; exit 2; }
  rm -rf "$app"
  mkdir -p "$(dirname "$app")"
  cp -a "$bundle" "$app"
  exe="$app/hulkforge"
  mkdir -p "$bindir"
  ln -sfn "$exe" "$bindir/hulkforge"
fi

# Desktop entry: run this very executable, whatever PATH the desktop session has.
mkdir -p "$data/applications"
sed -e "s|^Exec=hulkforge |Exec=\"$exe\" |" -e "s|^TryExec=hulkforge\$|TryExec=$exe|" \
  "$here/hulkforge.desktop" > "$data/applications/hulkforge.desktop"

# Icons: the application and its mission files share the picture.
for s in $sizes; do
  for kind in apps mimetypes; do mkdir -p "$data/icons/hicolor/${s}x${s}/$kind"; done
  install -m 644 "$here/icons/hulkforge-$s.png" "$data/icons/hicolor/${s}x${s}/apps/hulkforge.png"
  install -m 644 "$here/icons/hulkforge-$s.png" "$data/icons/hicolor/${s}x${s}/mimetypes/$mime_name.png"
done
mkdir -p "$data/icons/hicolor/scalable/apps" "$data/icons/hicolor/scalable/mimetypes"
install -m 644 "$here/icons/hulkforge.svg" "$data/icons/hicolor/scalable/apps/hulkforge.svg"
install -m 644 "$here/icons/hulkforge.svg" "$data/icons/hicolor/scalable/mimetypes/$mime_name.svg"

mkdir -p "$data/mime/packages"
install -m 644 "$here/hulkforge-mime.xml" "$data/mime/packages/hulkforge.xml"
refresh
echo "hulkforge installed: $exe; desktop entry, icons and mission type in $data"
