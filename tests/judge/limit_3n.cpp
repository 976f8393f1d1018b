// Wrong: a depth-first search with memo that calls the game a draw after 3n turns.
class Solution {
    int n;
    vector<vector<vector<int>>> memo;
    int play(vector<vector<int>>& g, int turn, int m, int c) {
        if (turn >= 3 * n) return 0;
        if (m == 0) return 1;
        if (m == c) return 2;
        int& r = memo[turn][m][c];
        if (r != -1) return r;
        if (turn % 2 == 0) {
            int best = 2;
            for (int nm : g[m]) {
                int x = play(g, turn + 1, nm, c);
                if (x == 1) return r = 1;
                if (x == 0) best = 0;
            }
            return r = best;
        }
        int best = 1;
        for (int nc : g[c]) {
            if (nc == 0) continue;
            int x = play(g, turn + 1, m, nc);
            if (x == 2) return r = 2;
            if (x == 0) best = 0;
        }
        return r = best;
    }
public:
    int catMouseGame(vector<vector<int>>& graph) {
        n = graph.size();
        memo.assign(3 * n + 1, vector<vector<int>>(n, vector<int>(n, -1)));
        return play(graph, 0, 1, 2);
    }
};
