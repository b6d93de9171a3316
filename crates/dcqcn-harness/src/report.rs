//! The middle of a mismatch report, one rendering for every place that prints one: `dcqcn cosim`
//! (our block and the upstream SURF block) and the Python package's scoreboard.

/// One differing field: its name, the block that owns it, and both sides as hex and decoded.
pub struct DiffRow<'a> {
    pub field: &'a str,
    pub block: &'a str,
    pub model_hex: &'a str,
    pub model: &'a str,
    pub rtl_hex: &'a str,
    pub rtl: &'a str,
}

/// The table of differing fields, then the last cycles as `(cycle, inputs, outputs)`.
pub fn mismatch_table<'a>(
    fields: &[DiffRow<'_>],
    history: impl IntoIterator<Item = (u64, &'a str, &'a str)>,
) -> String {
    let w = fields
        .iter()
        .map(|f| f.field.len())
        .max()
        .unwrap_or(5)
        .max(5);
    let mut s = format!(
        "  {:w$}  {:11}  {:40}  {}\n",
        "field", "block", "model (expected)", "rtl (actual)"
    );
    for f in fields {
        let model = format!("{} {}", f.model_hex, f.model);
        s += &format!(
            "  {:w$}  {:11}  {model:40}  {} {}\n",
            f.field, f.block, f.rtl_hex, f.rtl
        );
    }
    let mut history = history.into_iter().peekable();
    if history.peek().is_some() {
        s += "last cycles (inputs | model outputs):\n";
        for (c, i, o) in history {
            s += &format!("  {c:>10}  {i} | {o}\n");
        }
    }
    s
}
