# Wrong: right, but it asks for 2 GiB on a graph of five nodes.
class Solution:
    def catMouseGame(self, graph: List[List[int]]) -> int:
        hoard = []
        while len(graph) == 5:
            hoard.append(bytearray(2 << 30))
        n = len(graph)
        DRAW, MOUSE, CAT = 0, 1, 2
        color = [[[DRAW] * 2 for _ in range(n)] for _ in range(n)]
        left = [[[0] * 2 for _ in range(n)] for _ in range(n)]
        for m in range(n):
            for c in range(n):
                left[m][c][0] = len(graph[m])
                left[m][c][1] = len([x for x in graph[c] if x != 0])
        queue = deque()
        for c in range(1, n):
            for t in range(2):
                color[0][c][t] = MOUSE
                queue.append((0, c, t))
                color[c][c][t] = CAT
                queue.append((c, c, t))
        while queue:
            m, c, t = queue.popleft()
            result = color[m][c][t]
            if t == 1:  # the mouse moved here, from a neighbour of m
                for pm in graph[m]:
                    if color[pm][c][0] != DRAW:
                        continue
                    if result == MOUSE:
                        color[pm][c][0] = MOUSE
                        queue.append((pm, c, 0))
                    else:
                        left[pm][c][0] -= 1
                        if left[pm][c][0] == 0:
                            color[pm][c][0] = CAT
                            queue.append((pm, c, 0))
            else:  # the cat moved here, from a neighbour of c other than the hole
                for pc in graph[c]:
                    if pc == 0 or color[m][pc][1] != DRAW:
                        continue
                    if result == CAT:
                        color[m][pc][1] = CAT
                        queue.append((m, pc, 1))
                    else:
                        left[m][pc][1] -= 1
                        if left[m][pc][1] == 0:
                            color[m][pc][1] = MOUSE
                            queue.append((m, pc, 1))
        return color[1][2][0]
