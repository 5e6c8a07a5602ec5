#!/usr/bin/env bash
# trace problems/von-mises.cfg --plot: plot.gp, critical.csv and lambda_u_2_uy.png/.svg
# beside the results; the PNG is a PNG of 800x600; `gnuplot plot.gp` run again in
# the results directory reproduces the PNG and the SVG byte for byte (pngcairo and
# svg write no time stamp, and the script reads only path.csv and critical.csv);
# output.plot = true does the same as --plot; without gnuplot the run still exits 0.
# usage: plot.sh TRACE SOURCE_DIR WORK_DIR
set -u
trace=$1; src=$2; work=$3
die() { echo "FAIL: $*"; exit 1; }
command -v gnuplot > /dev/null || { echo "SKIP: gnuplot is not installed (Debian package gnuplot-nox)"; exit 77; }
rm -rf "$work"; mkdir -p "$work"
cfg="$src/problems/von-mises.cfg"
d="$work/a"

"$trace" "$cfg" --out "$d" --quiet --plot > "$work/a.log" 2>&1 || die "exit $? (expected 0): $(cat "$work/a.log")"
for f in path.csv summary.json plot.gp critical.csv lambda_u_2_uy.png lambda_u_2_uy.svg; do
  [ -s "$d/$f" ] || die "$f missing or empty; log: $(cat "$work/a.log")"
done
grep -q "plot: 2 figures in" "$work/a.log" || die "no plot line in the output: $(cat "$work/a.log")"

# A PNG: the 8-byte signature, then the IHDR chunk with width and height (big endian).
magic=$(head -c 8 "$d/lambda_u_2_uy.png" | od -An -tx1 | tr -d ' \n')
[ "$magic" = "89504e470d0a1a0a" ] || die "lambda_u_2_uy.png is not a PNG (first bytes $magic)"
dims() { echo "$((16#$(od -An -tx1 -j16 -N4 "$1" | tr -d ' \n')))x$((16#$(od -An -tx1 -j20 -N4 "$1" | tr -d ' \n')))"; }
[ "$(dims "$d/lambda_u_2_uy.png")" = "800x600" ] || die "PNG is $(dims "$d/lambda_u_2_uy.png"), expected 800x600"
grep -q "<svg" "$d/lambda_u_2_uy.svg" || die "lambda_u_2_uy.svg is not an SVG"
echo "ok figures: PNG $(dims "$d/lambda_u_2_uy.png"), $(wc -c < "$d/lambda_u_2_uy.png") bytes"

# critical.csv: the header and the limit point of summary.json.
[ "$(head -n 1 "$d/critical.csv")" = "id,kind,branch,lambda,u_2_uy,converged" ] || die "critical.csv header: $(head -n 1 "$d/critical.csv")"
grep -q "^LP1,limit,0,.*,1$" "$d/critical.csv" || die "LP1 not in critical.csv: $(cat "$d/critical.csv")"
lp_csv=$(awk -F, '$1 == "LP1" { print $4 }' "$d/critical.csv")
lp_json=$(grep -A8 '"id": "LP1"' "$d/summary.json" | sed -n 's/^ *"lambda": \([^,]*\),$/\1/p' | head -n 1)
awk -v a="$lp_csv" -v b="$lp_json" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(b != "" && d <= 1e-15 * m) }' ||
  die "LP1: lambda $lp_csv in critical.csv, $lp_json in summary.json"
echo "ok critical.csv"

# The script regenerates the figures from the CSV files alone.
mkdir -p "$work/first"
cp "$d"/lambda_u_2_uy.png "$d"/lambda_u_2_uy.svg "$work/first/"
rm "$d"/lambda_u_2_uy.png "$d"/lambda_u_2_uy.svg
(cd "$d" && gnuplot plot.gp) > "$work/rerun.log" 2>&1 || die "gnuplot plot.gp: exit $?: $(cat "$work/rerun.log")"
[ -s "$d/lambda_u_2_uy.png" ] || die "gnuplot plot.gp did not write lambda_u_2_uy.png"
cmp -s "$work/first/lambda_u_2_uy.png" "$d/lambda_u_2_uy.png" ||
  die "rerun PNG differs: $(wc -c < "$work/first/lambda_u_2_uy.png") vs $(wc -c < "$d/lambda_u_2_uy.png") bytes, $(dims "$work/first/lambda_u_2_uy.png") vs $(dims "$d/lambda_u_2_uy.png")"
cmp -s "$work/first/lambda_u_2_uy.svg" "$d/lambda_u_2_uy.svg" || die "rerun SVG differs"
echo "ok gnuplot plot.gp reproduces the PNG and the SVG byte for byte"

# A restyled script is honoured: a smaller size gives a smaller PNG.
sed -i 's/^width = 800$/width = 400/; s/^height = 600$/height = 300/' "$d/plot.gp"
(cd "$d" && gnuplot plot.gp) > "$work/restyle.log" 2>&1 || die "restyled plot.gp: exit $?: $(cat "$work/restyle.log")"
[ "$(dims "$d/lambda_u_2_uy.png")" = "400x300" ] || die "restyled PNG is $(dims "$d/lambda_u_2_uy.png")"
echo "ok restyle"

# output.plot = true is --plot.
"$trace" "$cfg" --out "$work/b" --quiet output.plot=true > "$work/b.log" 2>&1 || die "output.plot=true: exit $?"
[ -s "$work/b/lambda_u_2_uy.png" ] || die "output.plot=true: no PNG"
cmp -s "$work/first/lambda_u_2_uy.png" "$work/b/lambda_u_2_uy.png" || die "output.plot=true: PNG differs from --plot's"
echo "ok output.plot"

# No gnuplot: a message on stderr, the script written, exit code of the trace (0).
SENDA_GNUPLOT="$work/no-such-gnuplot" "$trace" "$cfg" --out "$work/c" --quiet --plot > "$work/c.out" 2> "$work/c.err"
rc=$?
[ $rc -eq 0 ] || die "without gnuplot: exit $rc, expected 0 (the trace completed)"
grep -q "trace: --plot: .*no-such-gnuplot not found.*gnuplot-nox" "$work/c.err" || die "message: $(cat "$work/c.err")"
[ -s "$work/c/plot.gp" ] && [ -s "$work/c/critical.csv" ] && [ -s "$work/c/path.csv" ] || die "without gnuplot: files missing"
[ ! -e "$work/c/lambda_u_2_uy.png" ] || die "without gnuplot: a PNG appeared"
(cd "$work/c" && gnuplot plot.gp) > /dev/null 2>&1 || die "gnuplot plot.gp afterwards failed"
cmp -s "$work/first/lambda_u_2_uy.png" "$work/c/lambda_u_2_uy.png" || die "PNG drawn afterwards differs"
echo "ok without gnuplot"
