# The imperfect three-bar path (problems/three-bar-imperfect.cfg, P2 = 0.05 at node 3
# in y) over the bifurcation diagram of the perfect structure (problems/three-bar.cfg,
# every branch). Called by scripts/make-figures.sh:
#   gnuplot -e "perfect='A/path.csv'; imperfect='B/path.csv'; out='fig.png'" scripts/three-bar-overlay.gp
# Columns of path.csv: point, branch, lambda, u_3_ux, u_3_uy, ...
set datafile separator ","
set terminal pngcairo size 800,600 font ",11"
set output out
set title "three-bar: imperfect path (P2 = 0.05) over the perfect diagram"
set xlabel "u_3_uy (node 3, y)" noenhanced
set ylabel "load factor lambda"
set grid
set key top left
stats perfect using 2 skip 1 nooutput
nb = int(STATS_max)
plot for [b=0:nb] perfect skip 1 using ($2 == b ? $5 : 1/0):3 with lines lc rgb "#999999" lw 1.5 \
       title (b == 0 ? "perfect: all branches" : ""), \
     imperfect skip 1 using 5:3 with lines lc rgb "#d62728" lw 2.5 title "imperfect, P2 = 0.05"
