# Directed graph (each unordered pair of nodes is saved once): small.el
# A small weighted test graph: 12 vertices, 25 edges, vertex 7 has no edge.
# Nodes: 12 Edges: 25
# FromNodeId	ToNodeId	Weight
0	1	8
0	8	27
0	9	64
1	3	55
1	6	41
1	8	60
1	9	59
2	8	47
3	0	39
3	1	32
3	5	24
4	6	32
4	8	11
5	2	39
5	9	64
6	0	44
6	1	58
6	10	37
8	1	10
8	2	16
8	6	54
9	0	22
9	10	44
10	2	20
11	1	63
