//! `cmg gen --exhaustive`'s own small tests: graph6 and the scheduler's array index.

use super::graph6::parse_graph6;
use super::scheduler_index;

/// graph6 as nauty's documentation gives it: a path and a triangle.
#[test]
fn graph6_reads_nautys_format() {
    // "Bw": 3 nodes, edges 0-1, 0-2, 1-2 (the triangle).
    let triangle = parse_graph6("Bw").unwrap();
    assert_eq!(
        triangle.adjacency(),
        vec![vec![1, 2], vec![0, 2], vec![0, 1]]
    );
    // "Ch": 4 nodes; 'h' - 63 = 41 = 101001 are the bits of (0,1) (0,2) (1,2) (0,3)
    // (1,3) (2,3): the path 0-1-2-3.
    let path = parse_graph6("Ch").unwrap();
    assert_eq!(
        path.adjacency(),
        vec![vec![1], vec![0, 2], vec![1, 3], vec![2]]
    );
    assert!(parse_graph6("C").is_none(), "too short");
    assert!(parse_graph6("Chh").is_none(), "too long");
    assert!(parse_graph6("").is_none());
}

fn index(count: usize, vars: &[(&str, &str)]) -> Result<(usize, &'static str), String> {
    let vars: Vec<(String, String)> = vars
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    scheduler_index(count, &|name| {
        vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    })
    .map_err(|error| error.to_string())
}

/// Each scheduler's numbering, its base, and the errors.
#[test]
fn every_schedulers_index_is_a_part_from_one() {
    assert_eq!(
        index(8, &[("SLURM_ARRAY_TASK_ID", "3")]),
        Ok((3, "SLURM_ARRAY_TASK_ID"))
    );
    assert_eq!(
        index(
            8,
            &[
                ("SLURM_ARRAY_TASK_ID", "10"),
                ("SLURM_ARRAY_TASK_MIN", "10")
            ]
        ),
        Ok((1, "SLURM_ARRAY_TASK_ID"))
    );
    assert_eq!(
        index(8, &[("JOB_COMPLETION_INDEX", "0")]),
        Ok((1, "JOB_COMPLETION_INDEX"))
    );
    assert_eq!(
        index(8, &[("AWS_BATCH_JOB_ARRAY_INDEX", "7")]),
        Ok((8, "AWS_BATCH_JOB_ARRAY_INDEX"))
    );
    assert_eq!(index(8, &[("PARALLEL_SEQ", "8")]), Ok((8, "PARALLEL_SEQ")));
    assert!(index(8, &[("PARALLEL_SEQ", "9")])
        .unwrap_err()
        .contains("not one of 1 to 8"));
    assert!(index(8, &[("JOB_COMPLETION_INDEX", "-1")]).is_err());
    assert!(index(8, &[("PARALLEL_SEQ", "x")])
        .unwrap_err()
        .contains("not a number"));
    assert!(index(8, &[]).unwrap_err().contains("none of"));
}
