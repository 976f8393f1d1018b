# Wrong: a depth-first search that takes a position it is still exploring as a draw,
# and caches what it concluded from that guess.
class Solution:
    def catMouseGame(self, graph: List[List[int]]) -> int:
        memo = {}
        on_path = set()

        def play(m, c, mouse_turn):
            if m == 0:
                return 1
            if m == c:
                return 2
            key = (m, c, mouse_turn)
            if key in memo:
                return memo[key]
            if key in on_path:
                return 0
            on_path.add(key)
            if mouse_turn:
                results = [play(nm, c, False) for nm in graph[m]]
                result = 1 if 1 in results else (0 if 0 in results else 2)
            else:
                results = [play(m, nc, True) for nc in graph[c] if nc != 0]
                result = 2 if 2 in results else (0 if 0 in results else 1)
            on_path.discard(key)
            memo[key] = result
            return result

        return play(1, 2, True)
