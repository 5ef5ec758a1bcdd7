// DFG benchmark channel [0,2.2] x [0,0.41] minus the cylinder (centre (0.2,0.2), radius
// 0.05) as the 24-macro coarse mesh of grids/dfg24.feast: the same 35 vertices, 59 edges
// and 24 quadrilaterals (one mesh quad per surface), the same boundary parts.
//   gmsh -2 dfg24.geo -format msh41 -o dfg24.msh     (or -format msh22)
// Read the .msh with a config section for the curved part:
//   [boundary.cylinder]
//   type = circle
//   center = 0.2 0.2
//   radius = 0.05
// Point k+1 is vertex k of dfg24.feast; Gmsh renumbers the mesh nodes, and may orient
// the quads clockwise: feastc turns them counter-clockwise when it reads them.
// Generated from dfg24.feast; the vertex layout is documented there.

lc = 1;
Point(1) = {0.25, 0.2, 0, lc};
Point(2) = {0.2353553390593274, 0.23535533905932737, 0, lc};
Point(3) = {0.2, 0.25, 0, lc};
Point(4) = {0.16464466094067265, 0.2353553390593274, 0, lc};
Point(5) = {0.15, 0.2, 0, lc};
Point(6) = {0.16464466094067262, 0.16464466094067265, 0, lc};
Point(7) = {0.2, 0.15, 0, lc};
Point(8) = {0.23535533905932737, 0.16464466094067262, 0, lc};
Point(9) = {0.29, 0.2, 0, lc};
Point(10) = {0.265, 0.265, 0, lc};
Point(11) = {0.2, 0.29, 0, lc};
Point(12) = {0.115, 0.285, 0, lc};
Point(13) = {0.09, 0.2, 0, lc};
Point(14) = {0.12, 0.12, 0, lc};
Point(15) = {0.2, 0.11, 0, lc};
Point(16) = {0.265, 0.135, 0, lc};
Point(17) = {0.42, 0.2, 0, lc};
Point(18) = {0.315, 0.29, 0, lc};
Point(19) = {0.29, 0.41, 0, lc};
Point(20) = {0.0, 0.41, 0, lc};
Point(21) = {0.0, 0.2, 0, lc};
Point(22) = {0.0, 0.0, 0, lc};
Point(23) = {0.29, 0.0, 0, lc};
Point(24) = {0.31, 0.105, 0, lc};
Point(25) = {0.425, 0.0, 0, lc};
Point(26) = {0.47, 0.41, 0, lc};
Point(27) = {1.0, 0.2, 0, lc};
Point(28) = {1.0, 0.0, 0, lc};
Point(29) = {1.0, 0.41, 0, lc};
Point(30) = {1.6, 0.2, 0, lc};
Point(31) = {1.6, 0.0, 0, lc};
Point(32) = {1.6, 0.41, 0, lc};
Point(33) = {2.2, 0.0, 0, lc};
Point(34) = {2.2, 0.2, 0, lc};
Point(35) = {2.2, 0.41, 0, lc};
Point(36) = {0.2, 0.2, 0, lc}; // cylinder centre (for the arcs only)

Line(1) = {1, 9};
Line(2) = {9, 10};
Line(3) = {10, 2};
Circle(4) = {2, 36, 1};
Line(5) = {10, 11};
Line(6) = {11, 3};
Circle(7) = {3, 36, 2};
Line(8) = {11, 12};
Line(9) = {12, 4};
Circle(10) = {4, 36, 3};
Line(11) = {12, 13};
Line(12) = {13, 5};
Circle(13) = {5, 36, 4};
Line(14) = {13, 14};
Line(15) = {14, 6};
Circle(16) = {6, 36, 5};
Line(17) = {14, 15};
Line(18) = {15, 7};
Circle(19) = {7, 36, 6};
Line(20) = {15, 16};
Line(21) = {16, 8};
Circle(22) = {8, 36, 7};
Line(23) = {16, 9};
Circle(24) = {1, 36, 8};
Line(25) = {9, 17};
Line(26) = {17, 18};
Line(27) = {18, 10};
Line(28) = {18, 19};
Line(29) = {19, 11};
Line(30) = {19, 20};
Line(31) = {20, 12};
Line(32) = {20, 21};
Line(33) = {21, 13};
Line(34) = {21, 22};
Line(35) = {22, 14};
Line(36) = {22, 23};
Line(37) = {23, 15};
Line(38) = {23, 24};
Line(39) = {24, 16};
Line(40) = {24, 17};
Line(41) = {23, 25};
Line(42) = {25, 17};
Line(43) = {25, 28};
Line(44) = {28, 27};
Line(45) = {27, 17};
Line(46) = {28, 31};
Line(47) = {31, 30};
Line(48) = {30, 27};
Line(49) = {31, 33};
Line(50) = {33, 34};
Line(51) = {34, 30};
Line(52) = {17, 26};
Line(53) = {26, 19};
Line(54) = {27, 29};
Line(55) = {29, 26};
Line(56) = {30, 32};
Line(57) = {32, 29};
Line(58) = {34, 35};
Line(59) = {35, 32};

Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Curve Loop(2) = {-3, 5, 6, 7};
Plane Surface(2) = {2};
Curve Loop(3) = {-6, 8, 9, 10};
Plane Surface(3) = {3};
Curve Loop(4) = {-9, 11, 12, 13};
Plane Surface(4) = {4};
Curve Loop(5) = {-12, 14, 15, 16};
Plane Surface(5) = {5};
Curve Loop(6) = {-15, 17, 18, 19};
Plane Surface(6) = {6};
Curve Loop(7) = {-18, 20, 21, 22};
Plane Surface(7) = {7};
Curve Loop(8) = {-21, 23, -1, 24};
Plane Surface(8) = {8};
Curve Loop(9) = {25, 26, 27, -2};
Plane Surface(9) = {9};
Curve Loop(10) = {-27, 28, 29, -5};
Plane Surface(10) = {10};
Curve Loop(11) = {-29, 30, 31, -8};
Plane Surface(11) = {11};
Curve Loop(12) = {-31, 32, 33, -11};
Plane Surface(12) = {12};
Curve Loop(13) = {-33, 34, 35, -14};
Plane Surface(13) = {13};
Curve Loop(14) = {-35, 36, 37, -17};
Plane Surface(14) = {14};
Curve Loop(15) = {-37, 38, 39, -20};
Plane Surface(15) = {15};
Curve Loop(16) = {-39, 40, -25, -23};
Plane Surface(16) = {16};
Curve Loop(17) = {41, 42, -40, -38};
Plane Surface(17) = {17};
Curve Loop(18) = {43, 44, 45, -42};
Plane Surface(18) = {18};
Curve Loop(19) = {46, 47, 48, -44};
Plane Surface(19) = {19};
Curve Loop(20) = {49, 50, 51, -47};
Plane Surface(20) = {20};
Curve Loop(21) = {52, 53, -28, -26};
Plane Surface(21) = {21};
Curve Loop(22) = {54, 55, -52, -45};
Plane Surface(22) = {22};
Curve Loop(23) = {56, 57, -54, -48};
Plane Surface(23) = {23};
Curve Loop(24) = {58, 59, -56, -51};
Plane Surface(24) = {24};

// one quadrilateral per surface: every curve has 2 nodes
Transfinite Curve {1:59} = 2;
Transfinite Surface {1:24};
Recombine Surface {1:24};

Physical Curve("inflow", 1) = {34, 32};
Physical Curve("outflow", 2) = {50, 58};
Physical Curve("wall", 3) = {36, 41, 43, 46, 49, 59, 57, 55, 53, 30};
Physical Curve("cylinder", 4) = {4, 7, 10, 13, 16, 19, 22, 24};
Physical Surface("domain", 5) = {1:24};
