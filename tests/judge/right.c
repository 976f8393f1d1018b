// A right solution: retrograde analysis from the ends of the game, as LeetCode calls
// it in C (the lists, their number, and each one's length).
int catMouseGame(int** graph, int graphSize, int* graphColSize) {
    int n = graphSize;
    int size = n * n * 2;
    int* color = calloc(size, sizeof(int));
    int* left = calloc(size, sizeof(int));
    int* queue = malloc(sizeof(int) * size * 3);
    int head = 0, tail = 0;
#define AT(m, c, t) (((m) * n + (c)) * 2 + (t))
    for (int m = 0; m < n; m++)
        for (int c = 0; c < n; c++) {
            left[AT(m, c, 0)] = graphColSize[m];
            int moves = 0;
            for (int i = 0; i < graphColSize[c]; i++) moves += graph[c][i] != 0;
            left[AT(m, c, 1)] = moves;
        }
    for (int c = 1; c < n; c++)
        for (int t = 0; t < 2; t++) {
            color[AT(0, c, t)] = 1;
            queue[tail++] = 0, queue[tail++] = c, queue[tail++] = t;
            color[AT(c, c, t)] = 2;
            queue[tail++] = c, queue[tail++] = c, queue[tail++] = t;
        }
    while (head < tail) {
        int m = queue[head++], c = queue[head++], t = queue[head++];
        int result = color[AT(m, c, t)];
        if (t == 1) {
            for (int i = 0; i < graphColSize[m]; i++) {
                int pm = graph[m][i], p = AT(pm, c, 0);
                if (color[p] != 0) continue;
                if (result == 1 || --left[p] == 0) {
                    color[p] = result;
                    queue[tail++] = pm, queue[tail++] = c, queue[tail++] = 0;
                }
            }
        } else {
            for (int i = 0; i < graphColSize[c]; i++) {
                int pc = graph[c][i];
                if (pc == 0) continue;
                int p = AT(m, pc, 1);
                if (color[p] != 0) continue;
                if (result == 2 || --left[p] == 0) {
                    color[p] = result;
                    queue[tail++] = m, queue[tail++] = pc, queue[tail++] = 1;
                }
            }
        }
    }
    int answer = color[AT(1, 2, 0)];
    free(color);
    free(left);
    free(queue);
    return answer;
}
