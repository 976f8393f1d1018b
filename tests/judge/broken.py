class Solution:
    def catMouseGame(self, graph: List[List[int]]) -> int
        return 0
