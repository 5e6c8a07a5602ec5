// Meshes of the bad-input corpus written by gmsh itself (tests/bad-input/270-291, 503, 504):
//   gmsh -2 bad-meshes.geo -setnumber case 1 -format msh41 -o triangle.msh      (a surface: triangles)
//   gmsh -1 bad-meshes.geo -setnumber case 2 -format msh41 -o duplicate-apex.msh (two points at the apex)
//   gmsh -1 bad-meshes.geo -setnumber case 2 -format msh22 -o version-2.msh      (MSH 2.2)
//   gmsh -1 bad-meshes.geo -setnumber case 3 -format msh41 -o spaced-name.msh    (a group name with a space)
//   gmsh -1 bad-meshes.geo -setnumber case 4 -format msh41 -o portal-3d.msh      (a girder of several lines)
//   gmsh -1 bad-meshes.geo -setnumber case 5 -format msh41 -o duplicate-line.msh (a bar defined twice)
//   gmsh -1 bad-meshes.geo -setnumber case 6 -format msh41 -o shared-name.msh    (a point and a curve group "top")
// The others are two-bar.msh (tests/input/mesh/) edited by hand, each header says how.
DefineConstant[ case = 1 ];
If (case == 1)
  Point(1) = {0, 0, 0}; Point(2) = {1, 0, 0}; Point(3) = {0, 1, 0};
  Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 1};
  Curve Loop(1) = {1, 2, 3}; Plane Surface(1) = {1};
  Transfinite Curve {1:3} = 2;
  Physical Curve("bars") = {1, 2, 3};
  Physical Surface("plate") = {1};
  Physical Point("base") = {1, 2};
  Physical Point("apex") = {3};
EndIf
If (case == 2)
  // A non-coherent geometry: each bar has its own apex point, at the same place.
  Point(1) = {-1, 0, 0}; Point(2) = {0, 0.5, 0}; Point(3) = {1, 0, 0}; Point(4) = {0, 0.5, 0};
  Line(1) = {1, 2}; Line(2) = {4, 3};
  Transfinite Curve {1, 2} = 2;
  Physical Point("base") = {1, 3};
  Physical Point("apex") = {2, 4};
  Physical Curve("bars") = {1, 2};
EndIf
If (case == 3)
  // The two-bar truss whose bars are the group "two bars": a name with a space,
  // which a .cfg field (group:NAME) cannot hold.
  Point(1) = {-1, 0, 0}; Point(2) = {0, 0.5, 0}; Point(3) = {1, 0, 0};
  Line(1) = {1, 2}; Line(2) = {2, 3};
  Transfinite Curve {1, 2} = 2;
  Physical Point("base") = {1, 3};
  Physical Point("apex") = {2};
  Physical Curve("two bars") = {1, 2};
EndIf
If (case == 4)
  // A space portal: columns 1-2 and 4-3 (two lines each), the girder 2-3 (three
  // lines, each a one-element member of the group "girder").
  Point(1) = {0, 0, 0}; Point(2) = {0, 0, 1}; Point(3) = {1, 0, 1}; Point(4) = {1, 0, 0};
  Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {4, 3};
  Transfinite Curve {1, 3} = 3;
  Transfinite Curve {2} = 4;
  Physical Point("base") = {1, 4};
  Physical Point("top") = {2, 3};
  Physical Curve("cols") = {1, 3};
  Physical Curve("girder") = {2};
EndIf
If (case == 5)
  // The two-bar truss with its first bar defined twice (Line 3, reversed): two
  // elements on one pair of nodes, a member counted twice.
  Point(1) = {-1, 0, 0}; Point(2) = {0, 0.5, 0}; Point(3) = {1, 0, 0};
  Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {2, 1};
  Transfinite Curve {1:3} = 2;
  Physical Curve("bars") = {1, 2, 3};
  Physical Point("base") = {1, 3};
  Physical Point("apex") = {2};
EndIf
If (case == 6)
  // A column of two curves whose top point and upper curve are both "top".
  Point(1) = {0, 0, 0}; Point(2) = {0, 1, 0}; Point(3) = {0, 2, 0};
  Line(1) = {1, 2}; Line(2) = {2, 3};
  Transfinite Curve {1, 2} = 3;
  Physical Curve("col") = {1, 2};
  Physical Point("base") = {1};
  Physical Point("top") = {3};
  Physical Curve("top") = {2};
EndIf
