// The 24-member star dome of problems/star-dome.cfg (coordinates in cm) as a Gmsh
// model: point k is node k of the .cfg, one 2-node line per bar, the six rim
// points in the group "rim", the apex in "apex", every bar in "bars". Written by
//   gmsh -1 star-dome.geo -format msh41 -bin -o star-dome.msh
Point(1) = {0, 0, 8.216};
For k In {0:5}
  Point(2 + k) = {25 * Cos(k * Pi / 3), 25 * Sin(k * Pi / 3), 6.216};
  Point(8 + k) = {50 * Cos(Pi / 6 + k * Pi / 3), 50 * Sin(Pi / 6 + k * Pi / 3), 0};
EndFor
For k In {0:5}
  Line(1 + k) = {1, 2 + k};                  // apex to the inner ring
  Line(7 + k) = {2 + k, 2 + (k + 1) % 6};    // inner ring
  Line(13 + 2 * k) = {2 + k, 8 + k};         // inner node to its two outer nodes
  Line(14 + 2 * k) = {2 + k, 8 + (k + 5) % 6};
EndFor
Transfinite Curve {1:24} = 2;
Physical Point("rim") = {8:13};
Physical Point("apex") = {1};
Physical Curve("bars") = {1:24};
