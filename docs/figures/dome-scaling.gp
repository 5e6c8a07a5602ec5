# The lattice dome from rest through LP1 at 10^4 ... 10^6 unknowns (docs/performance.md,
# "The 10^6 dome"). Run from the repository root:  gnuplot docs/figures/dome-scaling.gp
set terminal pngcairo size 900,600 font ",11"
set output 'docs/figures/dome-scaling.png'
set logscale xy
set format x '10^{%L}'
set format y '10^{%L}'
set xlabel 'unknowns n'
set grid
set title 'bench\_dome --max-steps 12 --solver mumps (monitor off), 2 cores: 13 points + LP1 located'
set fit quiet
set fit logfile '/dev/null'
f1(x) = a1 * x**b1; a1 = 1e-6; b1 = 1.3
fit log(f1(x)) 'docs/figures/dome-scaling.dat' using 1:(log($2)) via a1, b1
f2(x) = a2 * x**b2; a2 = 1e-4; b2 = 1.2
fit log(f2(x)) 'docs/figures/dome-scaling.dat' using 1:(log($3)) via a2, b2
f3(x) = a3 * x**b3; a3 = 1e-5; b3 = 1.0
fit log(f3(x)) 'docs/figures/dome-scaling.dat' using 1:(log($4 / 1024)) via a3, b3
f4(x) = a4 * x**b4; a4 = 1e-7; b4 = 1.2
fit log(f4(x)) 'docs/figures/dome-scaling.dat' using 1:(log($5 * 8 / 2**30)) via a4, b4
set xrange [6e3:1.6e6]
set yrange [1e-3:1e3]
set key left top spacing 1.3
plot 'docs/figures/dome-scaling.dat' using 1:2 with points pt 7 ps 1.4 lc rgb '#1f77b4' title sprintf('time per factorization, s (fit n^{%.2f})', b1), \
     f1(x) with lines dt 2 lw 1.5 lc rgb '#1f77b4' notitle, \
     '' using 1:3 with points pt 5 ps 1.4 lc rgb '#d62728' title sprintf('whole run, s (fit n^{%.2f})', b2), \
     f2(x) with lines dt 2 lw 1.5 lc rgb '#d62728' notitle, \
     '' using 1:($4 / 1024) with points pt 9 ps 1.4 lc rgb '#2ca02c' title sprintf('peak RSS, GiB (fit n^{%.2f})', b3), \
     f3(x) with lines dt 2 lw 1.5 lc rgb '#2ca02c' notitle, \
     '' using 1:($5 * 8 / 2**30) with points pt 11 ps 1.4 lc rgb '#9467bd' title sprintf('MUMPS factor INFOG(29), GiB (fit n^{%.2f})', b4), \
     f4(x) with lines dt 2 lw 1.5 lc rgb '#9467bd' notitle
