// A right solution: retrograde analysis from the ends of the game.
func catMouseGame(graph [][]int) int {
	n := len(graph)
	at := func(m, c, t int) int { return (m*n+c)*2 + t }
	color := make([]int, n*n*2)
	left := make([]int, n*n*2)
	for m := 0; m < n; m++ {
		for c := 0; c < n; c++ {
			left[at(m, c, 0)] = len(graph[m])
			moves := 0
			for _, x := range graph[c] {
				if x != 0 {
					moves++
				}
			}
			left[at(m, c, 1)] = moves
		}
	}
	queue := [][3]int{}
	for c := 1; c < n; c++ {
		for t := 0; t < 2; t++ {
			color[at(0, c, t)] = 1
			queue = append(queue, [3]int{0, c, t})
			color[at(c, c, t)] = 2
			queue = append(queue, [3]int{c, c, t})
		}
	}
	for len(queue) > 0 {
		m, c, t := queue[0][0], queue[0][1], queue[0][2]
		queue = queue[1:]
		result := color[at(m, c, t)]
		if t == 1 {
			for _, pm := range graph[m] {
				p := at(pm, c, 0)
				if color[p] != 0 {
					continue
				}
				left[p]--
				if result == 1 || left[p] == 0 {
					color[p] = result
					queue = append(queue, [3]int{pm, c, 0})
				}
			}
		} else {
			for _, pc := range graph[c] {
				if pc == 0 {
					continue
				}
				p := at(m, pc, 1)
				if color[p] != 0 {
					continue
				}
				left[p]--
				if result == 2 || left[p] == 0 {
					color[p] = result
					queue = append(queue, [3]int{m, pc, 1})
				}
			}
		}
	}
	return color[at(1, 2, 0)]
}
