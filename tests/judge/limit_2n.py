# Wrong: a depth-first search that calls the game a draw after 2n turns.
class Solution:
    def catMouseGame(self, graph: List[List[int]]) -> int:
        n = len(graph)

        @lru_cache(None)
        def play(turn, m, c):
            if turn == 2 * n:
                return 0
            if m == 0:
                return 1
            if m == c:
                return 2
            if turn % 2 == 0:
                best = 2
                for nm in graph[m]:
                    r = play(turn + 1, nm, c)
                    if r == 1:
                        return 1
                    if r == 0:
                        best = 0
                return best
            best = 1
            for nc in graph[c]:
                if nc == 0:
                    continue
                r = play(turn + 1, m, nc)
                if r == 2:
                    return 2
                if r == 0:
                    best = 0
            return best

        return play(0, 1, 2)
