fn main() {
    let text = std::fs::read_to_string(std::env::args().nth(1).unwrap()).unwrap();
    let parse = cmg::syntax::parse(&text);
    let model = cmg::model::Model::new(&text, &parse);
    for d in &model.diagnostics { println!("{:?} {:?} {}", d.code, d.range, d.message); }
    println!("{:?}", model.graph);
    print!("---\n{}", cmg::ide::format(&text, &parse));
}
