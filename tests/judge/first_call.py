# Wrong from a fresh start: its first answer is a draw, every later one says the cat
# wins, so it fails the first graph of every process; no simple cause fits what it says after.
calls = [0]


class Solution:
    def catMouseGame(self, graph: List[List[int]]) -> int:
        calls[0] += 1
        return 0 if calls[0] == 1 else 2
