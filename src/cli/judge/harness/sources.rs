//! The harness around a solution, per language: a prelude before the user's code and a
//! main after it. Each harness takes hold of its two descriptors before the solution's
//! code runs, so that nothing the solution does with its own streams reaches them.

pub(super) const PY_PRELUDE: &str =
    "import sys, collections, functools, itertools, heapq, math, bisect
import os as __cmg_os
__cmg_graphs = __cmg_os.fdopen(3, 'r')
__cmg_answers = __cmg_os.fdopen(4, 'w')
from typing import *
from collections import *
from functools import *
from itertools import *
from heapq import *
sys.setrecursionlimit(100000)
";

pub(super) const PY_MAIN: &str = "
def __cmg_main():
    for line in __cmg_graphs:
        nums = list(map(int, line.split()))
        n, i, graph = nums[0], 1, []
        for _ in range(n):
            k = nums[i]
            graph.append(nums[i + 1:i + 1 + k])
            i += 1 + k
        answer = Solution().catMouseGame(graph)
        __cmg_answers.write('%s\\n' % (answer,))
        __cmg_answers.flush()

__cmg_main()
";

pub(super) const JS_PRELUDE: &str = r#"const __cmg_fs = require("fs");"#;

pub(super) const JS_MAIN: &str = r#"
;(function () {
  const chunk = Buffer.alloc(1 << 16);
  let pending = "";
  for (;;) {
    let read;
    try {
      read = __cmg_fs.readSync(3, chunk, 0, chunk.length, null);
    } catch (error) {
      if (error.code === "EAGAIN" || error.code === "EINTR") continue;
      if (error.code === "EOF") return;
      throw error;
    }
    if (read === 0) return;
    pending += chunk.toString("latin1", 0, read);
    let newline;
    while ((newline = pending.indexOf("\n")) >= 0) {
      const nums = pending.slice(0, newline).trim().split(/\s+/).map(Number);
      pending = pending.slice(newline + 1);
      const n = nums[0];
      const graph = [];
      let i = 1;
      for (let node = 0; node < n; node += 1) {
        const k = nums[i];
        graph.push(nums.slice(i + 1, i + 1 + k));
        i += 1 + k;
      }
      const answer = catMouseGame(graph);
      __cmg_fs.writeSync(4, answer + "\n");
    }
  }
})();
"#;

pub(super) const CPP_PRELUDE: &str = "#include <bits/stdc++.h>
using namespace std;
";

// A new object per graph, value-initialised as `Solution()` is (members without an
// initialiser are zero), on the heap so that a large table fits.
pub(super) const CPP_MAIN: &str = r#"
int main() {
  FILE* cmg_graphs = fdopen(3, "r");
  FILE* cmg_answers = fdopen(4, "w");
  if (!cmg_graphs || !cmg_answers) return 3;
  int n;
  while (fscanf(cmg_graphs, "%d", &n) == 1) {
    vector<vector<int>> graph(n);
    for (int i = 0; i < n; i++) {
      int k = 0;
      if (fscanf(cmg_graphs, "%d", &k) != 1) return 3;
      graph[i].resize(k);
      for (int j = 0; j < k; j++) {
        if (fscanf(cmg_graphs, "%d", &graph[i][j]) != 1) return 3;
      }
    }
    std::unique_ptr<Solution> solution(new Solution());
    int answer = solution->catMouseGame(graph);
    fprintf(cmg_answers, "%d\n", answer);
    fflush(cmg_answers);
  }
  return 0;
}
"#;

pub(super) const JAVA_PRELUDE: &str = "import java.util.*;
import java.io.*;
";

pub(super) const JAVA_MAIN: &str = r#"
public class Main {
  public static void main(String[] args) throws IOException {
    BufferedReader reader = new BufferedReader(new InputStreamReader(new FileInputStream("/dev/fd/3")));
    PrintStream answers = new PrintStream(new FileOutputStream("/dev/fd/4"), true);
    String line;
    while ((line = reader.readLine()) != null) {
      StringTokenizer tokens = new StringTokenizer(line);
      int n = Integer.parseInt(tokens.nextToken());
      int[][] graph = new int[n][];
      for (int i = 0; i < n; i++) {
        int k = Integer.parseInt(tokens.nextToken());
        graph[i] = new int[k];
        for (int j = 0; j < k; j++) graph[i][j] = Integer.parseInt(tokens.nextToken());
      }
      int answer = new Solution().catMouseGame(graph);
      answers.println(answer);
      answers.flush();
    }
  }
}
"#;

pub(super) const RUST_PRELUDE: &str = "#![allow(unused, dead_code, non_snake_case)]
use std::collections::*;
use std::cmp::*;
struct Solution;
";

pub(super) const RUST_MAIN: &str = r#"
fn main() {
    use std::io::{BufRead, Write};
    use std::os::fd::FromRawFd;
    // SAFETY: the judge opens descriptors 3 and 4 for the harness, and nothing else
    // holds them.
    let graphs = unsafe { std::fs::File::from_raw_fd(3) };
    let mut answers = unsafe { std::fs::File::from_raw_fd(4) };
    for line in std::io::BufReader::new(graphs).lines() {
        let Ok(line) = line else { return };
        let nums: Vec<i32> = line.split_whitespace().map(|x| x.parse().unwrap()).collect();
        let n = nums[0] as usize;
        let mut graph = Vec::with_capacity(n);
        let mut i = 1;
        for _ in 0..n {
            let k = nums[i] as usize;
            graph.push(nums[i + 1..i + 1 + k].to_vec());
            i += 1 + k;
        }
        let answer = Solution::cat_mouse_game(graph);
        if writeln!(answers, "{}", answer).is_err() {
            return;
        }
    }
}
"#;

pub(super) const GO_MAIN: &str = r#"package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
)

func main() {
	graphs := bufio.NewScanner(os.NewFile(3, "graphs"))
	graphs.Buffer(make([]byte, 1<<16), 1<<20)
	graphs.Split(bufio.ScanWords)
	answers := os.NewFile(4, "answers")
	next := func() (int, bool) {
		if !graphs.Scan() {
			return 0, false
		}
		value, err := strconv.Atoi(graphs.Text())
		return value, err == nil
	}
	for {
		n, ok := next()
		if !ok {
			return
		}
		graph := make([][]int, n)
		for i := range graph {
			k, _ := next()
			graph[i] = make([]int, k)
			for j := range graph[i] {
				graph[i][j], _ = next()
			}
		}
		fmt.Fprintf(answers, "%d\n", catMouseGame(graph))
	}
}
"#;

pub(super) const C_PRELUDE: &str = "#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <limits.h>
#include <math.h>
";

// As LeetCode calls it: the lists, their number, and each one's length.
pub(super) const C_MAIN: &str = r#"
int main(void) {
  FILE* cmg_graphs = fdopen(3, "r");
  FILE* cmg_answers = fdopen(4, "w");
  if (!cmg_graphs || !cmg_answers) return 3;
  int n;
  while (fscanf(cmg_graphs, "%d", &n) == 1) {
    int** graph = malloc(sizeof(int*) * (n > 0 ? n : 1));
    int* sizes = malloc(sizeof(int) * (n > 0 ? n : 1));
    for (int i = 0; i < n; i++) {
      int k = 0;
      if (fscanf(cmg_graphs, "%d", &k) != 1) return 3;
      sizes[i] = k;
      graph[i] = malloc(sizeof(int) * (k > 0 ? k : 1));
      for (int j = 0; j < k; j++) {
        if (fscanf(cmg_graphs, "%d", &graph[i][j]) != 1) return 3;
      }
    }
    int answer = catMouseGame(graph, n, sizes);
    fprintf(cmg_answers, "%d\n", answer);
    fflush(cmg_answers);
    for (int i = 0; i < n; i++) free(graph[i]);
    free(graph);
    free(sizes);
  }
  return 0;
}
"#;
