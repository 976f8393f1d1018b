//! The graph a file declares, on dense indices `0..n` ordered by node id, and the roles
//! the rules give node ids.

/// The role the rules give a node id: 0 is the hole, 1 the mouse's start, 2 the cat's.
/// The one table of these facts; hover, symbols, completion, semantic tokens and `cmg
/// dot` read it from here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeRole {
    Hole,
    MouseStart,
    CatStart,
}

impl NodeRole {
    pub const ALL: [NodeRole; 3] = [NodeRole::Hole, NodeRole::MouseStart, NodeRole::CatStart];

    /// The role of node `id`, if it has one.
    pub fn of(id: u32) -> Option<NodeRole> {
        NodeRole::ALL.into_iter().find(|role| role.id() == id)
    }

    pub fn id(self) -> u32 {
        match self {
            NodeRole::Hole => 0,
            NodeRole::MouseStart => 1,
            NodeRole::CatStart => 2,
        }
    }

    /// "hole", "mouse start", "cat start".
    pub fn name(self) -> &'static str {
        match self {
            NodeRole::Hole => "hole",
            NodeRole::MouseStart => "mouse start",
            NodeRole::CatStart => "cat start",
        }
    }
}

/// An undirected graph without self-loops or duplicate edges. Node ids (as written)
/// map to dense indices in ascending order, so "smallest id" and "smallest index" agree.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Graph {
    ids: Vec<u32>,
    adjacency: Vec<Vec<u32>>,
    labels: Vec<Option<String>>,
}

impl Graph {
    /// Builds the graph from its node ids (sorted, without repeats), its edges as
    /// products of dense indices (`(left, right)` joins every node of `left` to every
    /// node of `right`; self-loops and duplicates are dropped) and the labels of some
    /// nodes. A product is added a slice at a time, with no lookup per pair.
    pub(crate) fn from_products<'a>(
        ids: Vec<u32>,
        products: impl IntoIterator<Item = (&'a [u32], &'a [u32])>,
        labels: impl IntoIterator<Item = (u32, String)>,
    ) -> Graph {
        debug_assert!(ids.windows(2).all(|pair| pair[0] < pair[1]));
        let mut graph = Graph {
            adjacency: vec![Vec::new(); ids.len()],
            labels: vec![None; ids.len()],
            ids,
        };
        for (left, right) in products {
            for &a in left {
                graph.adjacency[a as usize].extend_from_slice(right);
            }
            for &b in right {
                graph.adjacency[b as usize].extend_from_slice(left);
            }
        }
        for (index, neighbours) in graph.adjacency.iter_mut().enumerate() {
            neighbours.sort_unstable();
            neighbours.dedup();
            neighbours.retain(|&next| next as usize != index);
            neighbours.shrink_to_fit();
        }
        for (id, label) in labels {
            if let Some(index) = graph.index_of(id) {
                graph.labels[index as usize].get_or_insert(label);
            }
        }
        graph
    }

    pub fn node_count(&self) -> usize {
        self.ids.len()
    }

    pub fn edge_count(&self) -> usize {
        self.adjacency.iter().map(Vec::len).sum::<usize>() / 2
    }

    /// The node ids in ascending order; position `i` holds the id of index `i`.
    pub fn ids(&self) -> &[u32] {
        &self.ids
    }

    pub fn id(&self, index: u32) -> u32 {
        self.ids[index as usize]
    }

    pub(crate) fn index_of(&self, id: u32) -> Option<u32> {
        self.ids.binary_search(&id).ok().map(|i| i as u32)
    }

    pub fn contains(&self, id: u32) -> bool {
        self.index_of(id).is_some()
    }

    /// The neighbours of the node at `index`, as indices in ascending order.
    pub fn neighbours(&self, index: u32) -> &[u32] {
        &self.adjacency[index as usize]
    }

    /// Adjacency lists on dense indices, as the solver takes them.
    pub fn adjacency(&self) -> &[Vec<u32>] {
        &self.adjacency
    }

    pub fn label(&self, index: u32) -> Option<&str> {
        self.labels[index as usize].as_deref()
    }

    /// The index of the node that plays `role`, if the graph has it.
    pub(crate) fn role_index(&self, role: NodeRole) -> Option<u32> {
        self.index_of(role.id())
    }

    pub fn hole(&self) -> Option<u32> {
        self.role_index(NodeRole::Hole)
    }

    pub(crate) fn mouse_start(&self) -> Option<u32> {
        self.role_index(NodeRole::MouseStart)
    }

    pub(crate) fn cat_start(&self) -> Option<u32> {
        self.role_index(NodeRole::CatStart)
    }

    /// Whether ids are exactly `0..n`, as an adjacency list needs.
    pub(crate) fn is_contiguous(&self) -> bool {
        self.ids
            .last()
            .is_none_or(|&last| last as usize + 1 == self.ids.len())
    }
}
