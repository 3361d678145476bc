//! Every relative link of the repository's Markdown files resolves: the file or folder it names
//! exists, and a `#fragment` into a Markdown file names one of its headings (GitHub's anchors).
//! Links to web addresses are not followed.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the repository")
}

/// The Markdown files under `dir`, outside build output, Git's folder and symbolic links.
fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("a readable folder") {
        let entry = entry.expect("a readable entry");
        let kind = entry.file_type().expect("a file type");
        let path = entry.path();
        let name = entry.file_name();
        if kind.is_symlink() || name == "target" || name == ".git" || name == "corpus" {
            continue;
        }
        if kind.is_dir() {
            markdown_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

/// The text outside fenced code blocks and inline code spans, line by line (1-based numbers).
fn prose(text: &str) -> Vec<(usize, String)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Drop inline code: every other piece between backticks.
        let kept: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        out.push((i + 1, kept));
    }
    out
}

/// The targets of the inline links and images on one line: `[text](target)`, `![alt](target)`.
fn link_targets(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(end) = after.find(')') else { break };
        let target = after[..end].split_whitespace().next().unwrap_or("");
        out.push(target.to_owned());
        rest = &after[end..];
    }
    out
}

/// GitHub's anchor of a heading: lower case, punctuation dropped but `-` and `_`, spaces as `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown file's headings (repeats numbered as GitHub numbers them).
fn anchors(text: &str) -> HashSet<String> {
    let mut out = HashSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        let Some(heading) = line.strip_prefix('#').filter(|_| !fenced) else { continue };
        let base = anchor(&heading.trim_start_matches('#').replace('`', ""));
        let mut name = base.clone();
        let mut n = 0;
        while !out.insert(name.clone()) {
            n += 1;
            name = format!("{base}-{n}");
        }
    }
    out
}

#[test]
fn every_relative_link_resolves() {
    let root = root();
    let mut files = Vec::new();
    markdown_files(&root, &mut files);
    assert!(files.iter().any(|f| f.ends_with("README.md")), "no README.md found under {}", root.display());
    let mut broken = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).expect("UTF-8 Markdown");
        for (line, kept) in prose(&text) {
            for target in link_targets(&kept) {
                if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                let (path, fragment) =
                    target.split_once('#').map_or((target.as_str(), None), |(p, f)| (p, Some(f)));
                let resolved = if path.is_empty() { file.clone() } else { file.parent().unwrap().join(path) };
                let shown = format!("{}:{line}: {target}", file.strip_prefix(&root).unwrap().display());
                if !resolved.exists() {
                    broken.push(format!("{shown} (no such file)"));
                } else if let Some(fragment) = fragment
                    && resolved.extension().is_some_and(|e| e == "md")
                    && !anchors(&fs::read_to_string(&resolved).expect("UTF-8 Markdown")).contains(fragment)
                {
                    broken.push(format!("{shown} (no such heading)"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn anchors_follow_github() {
    assert_eq!(anchor(" Compressed tables beside SRC"), "compressed-tables-beside-src");
    assert_eq!(anchor(" A dense table of 102,400 nodes"), "a-dense-table-of-102400-nodes");
    assert_eq!(anchor(" The signposts command"), "the-signposts-command");
    assert_eq!(link_targets("see [a](docs/x.md#y) and ![b](p.png \"t\")"), ["docs/x.md#y", "p.png"]);
}

/// Every Rust example of the READMEs is what GitHub shows: no line hidden from the page by
/// rustdoc (`# …`), a whole program with its `main`, so that a reader can paste it as it is.
#[test]
fn readme_examples_hide_nothing_and_are_whole_programs() {
    for file in ["README.md", "crates/signposts/README.md", "crates/signposts-rooms/README.md"] {
        let text = fs::read_to_string(root().join(file)).expect("a README");
        let mut block: Option<Vec<&str>> = None;
        for (i, line) in text.lines().enumerate() {
            match (&mut block, line.trim()) {
                (None, "```rust") => block = Some(Vec::new()),
                (Some(lines), "```") => {
                    assert!(
                        lines.iter().any(|l| l.starts_with("fn main()")),
                        "{file}:{}: no `fn main`",
                        i + 1
                    );
                    block = None;
                }
                (Some(lines), _) => {
                    let hidden = line.trim_start() == "#" || line.trim_start().starts_with("# ");
                    assert!(!hidden, "{file}:{}: a line rustdoc hides but GitHub shows: {line}", i + 1);
                    lines.push(line);
                }
                (None, _) => {}
            }
        }
    }
}
