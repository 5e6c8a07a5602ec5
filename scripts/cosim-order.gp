# The measured order of the coupling error in H (docs/validation.md "Co-simulation"):
# run in docs/figures by scripts/cosim-figures.sh, from cosim-order.dat.
set terminal pngcairo size 800,600 noenhanced
set output 'cosim-order.png'
set logscale xy
set format x '%.0e'
set format y '%.0e'
set grid
set key top left
set title 'seed 002, Jacobi d-d, exact subsystems: |x(1 s) - x_exact| against H'
set xlabel 'macro step H [s]'
set ylabel 'error of x(1 s) [m]'
# Reference slopes, half the finest point of each curve (so that they show beside the data).
f1(x) = 0.5 * 6.261e-03 * (x / 2.5e-4)
f2(x) = 0.5 * 2.841e-05 * (x / 2.5e-4)**2
plot 'cosim-order.dat' using 1:2 with linespoints pt 7 title 'ZOH (measured)', \
     'cosim-order.dat' using 1:3 with linespoints pt 5 title 'FOH (measured)', \
     f1(x) with lines dt 2 lc rgb 'gray40' title 'slope 1', \
     f2(x) with lines dt 3 lc rgb 'gray40' title 'slope 2'
