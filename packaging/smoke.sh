#!/usr/bin/env bash
# Smoke test of the standalone app: build it (packaging/build.sh), then run the frozen executable from an
# empty directory with no Python environment leaking in: --version, samples + validate, a 20-game simulate
# on 2 worker processes, a PNG render, and the editor window offscreen (and on Xvfb when xvfb-run exists).
# Prints the build time and the bundle size. Exit 0 when every check passes.
#
#   packaging/smoke.sh              build, then check
#   packaging/smoke.sh --no-build   check the bundle already in packaging/dist/hulkforge
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
bundle="$here/dist/hulkforge"
exe="$bundle/hulkforge"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
pass() { printf '  ok    %s\n' "$*"; }
bad() { printf '  FAIL  %s\n' "$*"; failures=$((failures + 1)); }
# Run the frozen app the way a user would: from elsewhere, without PYTHONPATH/PYTHONHOME or a venv.
app() { (cd "$work" && env -u PYTHONPATH -u PYTHONHOME -u VIRTUAL_ENV QT_QPA_PLATFORM="${QPA:-offscreen}" "$exe" "$@"); }

build_s="(not built)"
if [ "${1:-}" != "--no-build" ]; then
  echo "==== build"
  start=$(date +%s)
  "$here/build.sh"
  build_s="$(( $(date +%s) - start )) s"
fi
[ -x "$exe" ] || { echo "smoke.sh: $exe missing; run packaging/build.sh" >&2; exit 2; }
size=$(du -sh "$bundle" | cut -f1)

echo "==== frozen app checks ($exe)"
t0=$(date +%s)
want="hulkforge $(cd "$root" && sed -n 's/^__version__ = "\(.*\)"/\1/p' engine/__init__.py)"
got=$(app --version 2>&1) && [ "$(head -1 <<<"$got")" = "$want" ] && grep -q '^engine: ' <<<"$got" \
  && pass "--version: $(tr '\n' ' ' <<<"$got")" || bad "--version: '$got', expected '$want' and the engine's build"

mapfile -t samples < <(app samples)
if [ "${#samples[@]}" -ge 1 ]; then
  pass "samples: ${#samples[@]} bundled missions"
  for f in "${samples[@]}"; do
    case $f in "$bundle"/*) ;; *) bad "sample outside the bundle: $f" ;; esac
    out=$(app validate "$f" 2>&1) && pass "validate $(basename "$f")" || bad "validate $f: $out"
  done
else
  bad "samples listed nothing"
fi

printf '{"format": ' > "$work/broken.json"
set +e; out=$(app validate "$work/broken.json" 2>&1); code=$?; set -e
if [ "$code" = 2 ] && ! grep -q Traceback <<<"$out"; then pass "validate broken file: exit 2, one line"; else bad "validate broken file: exit $code: $out"; fi

if app simulate --help >/dev/null 2>&1; then
  s0=$(date +%s)
  set +e; out=$(app simulate pitfall --games 20 --seed 1 --workers 2 2>"$work/sim.err"); code=$?; set -e
  if [ "$code" = 0 ] && grep -q "20 of 20 games" <<<"$out" && grep -q "2 worker" <<<"$out" \
     && ! grep -q Traceback "$work/sim.err"; then
    pass "simulate pitfall: 20 games on 2 worker processes in $(( $(date +%s) - s0 )) s"
  else
    bad "simulate: exit $code: $out $(tail -5 "$work/sim.err")"
  fi
  # Same seed, same games: the frozen workers must reproduce the source tree's numbers exactly.
  # Only meaningful when the bundle was just built from this tree (the tree may have moved on since).
  if [ "$build_s" != "(not built)" ] && (cd "$root" && python3 -c "import engine.sim" 2>/dev/null); then
    src=$(cd "$root" && python3 -m engine.cli simulate pitfall --games 20 --seed 1 --workers 2 2>/dev/null)
    if [ "$(sed 1d <<<"$out")" = "$(sed 1d <<<"$src")" ]; then pass "simulate: frozen results equal the source tree's"
    else
      changed=$(cd "$root" && find engine -name '*.py' -newer "$here/build/hulkforge/PYZ-00.pyz" | head -5 | tr '\n' ' ')
      bad "simulate: frozen and source results differ${changed:+ (changed since the build: $changed)}"
    fi
  fi
else
  echo "  skip  simulate (no simulate command in this build)"
fi

if app render --help >/dev/null 2>&1; then
  out=$(app render "$bundle/_internal/sample_missions/pitfall.json" --format png -o "$work/pitfall.png" 2>&1) && ls "$work"/pitfall*.png >/dev/null 2>&1 \
    && pass "render pitfall to PNG" || bad "render: $out"
fi

if app edit --help 2>/dev/null | grep -q -- --screenshot; then
  set +e; out=$(timeout -k 10 60 env QT_QPA_PLATFORM=offscreen bash -c "cd '$work' && '$exe' edit --screenshot '$work/editor.png'" 2>&1); code=$?; set -e
  if [ "$code" = 0 ] && [ "$(stat -c %s "$work/editor.png" 2>/dev/null || echo 0)" -gt 10000 ] && ! grep -q Traceback <<<"$out" \
     && ! grep -q "not available" <<<"$out"; then
    pass "editor window offscreen, balance lab loaded: screenshot $(stat -c %s "$work/editor.png") bytes"
  else
    bad "editor offscreen: exit $code: $out"
  fi
  if command -v xvfb-run >/dev/null; then
    set +e
    out=$(cd "$work" && timeout -k 10 90 xvfb-run -a -s "-screen 0 1600x1000x24" env QT_QPA_PLATFORM=xcb "$exe" edit --screenshot "$work/editor-x11.png" 2>&1)
    code=$?; set -e
    if [ "$code" = 0 ] && [ -s "$work/editor-x11.png" ] && ! grep -q Traceback <<<"$out" \
       && ! grep -q "not available" <<<"$out"; then
      pass "editor window on X11 (Xvfb, xcb plugin), balance lab loaded"
    else
      bad "editor on X11: exit $code: $out"
    fi
  fi
fi
# No command opens the editor: it must come up and stay up until we stop it.
set +e; out=$(cd "$work" && timeout -k 10 8 env QT_QPA_PLATFORM=offscreen "$exe" 2>&1); code=$?; set -e
if [ "$code" = 124 ] && ! grep -q Traceback <<<"$out"; then pass "no command: the editor stays up"
else bad "no command: exit $code (expected 124 from timeout): $out"; fi

echo "==== summary"
echo "build time: $build_s; bundle size: $size ($bundle); checks: $(( $(date +%s) - t0 )) s"
[ "$failures" = 0 ] && echo "smoke: all checks passed" || { echo "smoke: $failures check(s) FAILED"; exit 1; }
