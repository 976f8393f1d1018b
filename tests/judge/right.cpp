// A right solution: retrograde analysis from the ends of the game.
class Solution {
public:
    int catMouseGame(vector<vector<int>>& graph) {
        int n = graph.size();
        auto at = [n](int m, int c, int t) { return (m * n + c) * 2 + t; };
        vector<int> color(n * n * 2, 0), left(n * n * 2, 0);
        for (int m = 0; m < n; m++)
            for (int c = 0; c < n; c++) {
                left[at(m, c, 0)] = graph[m].size();
                int moves = 0;
                for (int x : graph[c]) moves += x != 0;
                left[at(m, c, 1)] = moves;
            }
        deque<array<int, 3>> queue;
        for (int c = 1; c < n; c++)
            for (int t = 0; t < 2; t++) {
                color[at(0, c, t)] = 1;
                queue.push_back({0, c, t});
                color[at(c, c, t)] = 2;
                queue.push_back({c, c, t});
            }
        while (!queue.empty()) {
            auto [m, c, t] = queue.front();
            queue.pop_front();
            int result = color[at(m, c, t)];
            if (t == 1) {
                for (int pm : graph[m]) {
                    int p = at(pm, c, 0);
                    if (color[p] != 0) continue;
                    if (result == 1 || --left[p] == 0) {
                        color[p] = result;
                        queue.push_back({pm, c, 0});
                    }
                }
            } else {
                for (int pc : graph[c]) {
                    if (pc == 0) continue;
                    int p = at(m, pc, 1);
                    if (color[p] != 0) continue;
                    if (result == 2 || --left[p] == 0) {
                        color[p] = result;
                        queue.push_back({m, pc, 1});
                    }
                }
            }
        }
        return color[at(1, 2, 0)];
    }
};
