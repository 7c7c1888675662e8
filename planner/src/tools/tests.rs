//! Snapshot tests of each tool's logical plan: a change of plan shape shows up in review.
//! Regenerate with `INSTA_UPDATE=always cargo test -p quarry-planner` (or `cargo insta review`).

use std::sync::Arc;

use datafusion::datasource::MemTable;
use quarry_storage::schema::{TABLES, schema_of};

use super::*;

fn ctx() -> SessionContext {
    let ctx = SessionContext::new();
    for t in TABLES {
        let schema = schema_of(t).unwrap();
        ctx.register_table(
            t,
            Arc::new(MemTable::try_new(schema, vec![vec![]]).unwrap()),
        )
        .unwrap();
    }
    ctx
}

fn show(plan: LogicalPlan) -> String {
    plan.display_indent().to_string()
}

#[tokio::test]
async fn read_file_plans() {
    let ctx = ctx();
    insta::assert_snapshot!(
        "read_file",
        show(read_file(&ctx, "src/lib.rs").await.unwrap())
    );
    insta::assert_snapshot!(
        "path_candidates",
        show(path_candidates(&ctx, "lib.rs", 20).await.unwrap())
    );
    insta::assert_snapshot!(
        "same_name_count",
        show(same_name_count(&ctx, "src/lib.rs").await.unwrap())
    );
}

#[tokio::test]
async fn tree_plans() {
    let ctx = ctx();
    insta::assert_snapshot!(
        "tree_files",
        show(tree_files(&ctx, "repo_1", "src").await.unwrap())
    );
    insta::assert_snapshot!(
        "tree_definitions",
        show(tree_definitions(&ctx, "repo_1", "").await.unwrap())
    );
}

#[tokio::test]
async fn fetch_and_relationship_plans() {
    let ctx = ctx();
    let ids = vec!["o/r::a.rs::f".to_string(), "o/r::a.rs".to_string()];
    insta::assert_snapshot!(
        "symbols_by_identifier",
        show(symbols_by_identifier(&ctx, &ids).await.unwrap())
    );
    insta::assert_snapshot!(
        "files_by_identifier",
        show(files_by_identifier(&ctx, &ids).await.unwrap())
    );
    insta::assert_snapshot!(
        "related_incoming_calls",
        show(
            related(
                &ctx,
                "o/r::a.rs::f",
                &EdgeFilter {
                    kinds: &["calls"],
                    confidences: SURE,
                },
                Direction::Incoming,
                51
            )
            .await
            .unwrap()
        )
    );
    insta::assert_snapshot!(
        "relationship_counts",
        show(
            relationship_counts(&ctx, "o/r::a.rs::f", SURE)
                .await
                .unwrap()
        )
    );
    insta::assert_snapshot!(
        "calls_touching",
        show(calls_touching(&ctx, &ids).await.unwrap())
    );
    insta::assert_snapshot!("summaries", show(summaries(&ctx, &ids).await.unwrap()));
    insta::assert_snapshot!(
        "unresolved_sites_incoming",
        show(
            unresolved_sites(&ctx, "o/r::a.rs::f", "f", &["calls"], Direction::Incoming)
                .await
                .unwrap()
        )
    );
    insta::assert_snapshot!(
        "unresolved_targets",
        show(
            unresolved_targets(&ctx, "o/r::a.rs::f", &["calls"], 20)
                .await
                .unwrap()
        )
    );
}

#[tokio::test]
async fn grep_plans() {
    let ctx = ctx();
    let filter = SearchFilter {
        paths: vec!["src".into(), "./lib/".into()],
        extensions: vec![".rs".into(), "PY".into()],
        exclude_markdown: true,
    };
    insta::assert_snapshot!(
        "grep_candidates",
        show(
            grep_candidates(&ctx, &filter, &["fn main".into()])
                .await
                .unwrap()
        )
    );
    insta::assert_snapshot!(
        "grep_candidates_unfiltered",
        show(
            grep_candidates(&ctx, &SearchFilter::default(), &[])
                .await
                .unwrap()
        )
    );
    insta::assert_snapshot!(
        "paths_matching",
        show(paths_matching(&ctx, &filter, "main", false).await.unwrap())
    );
}

#[tokio::test]
async fn semantic_and_ontology_plans() {
    let ctx = ctx();
    let terms = vec!["pars".to_string(), "config".to_string()];
    let filter = SearchFilter {
        paths: vec!["src".into()],
        ..SearchFilter::default()
    };
    insta::assert_snapshot!(
        "semantic_symbols",
        show(semantic_symbols(&ctx, &filter, &terms, 100).await.unwrap())
    );
    insta::assert_snapshot!(
        "semantic_files",
        show(
            semantic_files(&ctx, &SearchFilter::default(), &terms, 100)
                .await
                .unwrap()
        )
    );
    insta::assert_snapshot!("language_mix", show(language_mix(&ctx).await.unwrap()));
    insta::assert_snapshot!(
        "most_used",
        show(most_used(&ctx, &["class", "struct"], 12).await.unwrap())
    );
    insta::assert_snapshot!(
        "entry_points",
        show(entry_points(&ctx, &["main"], 15).await.unwrap())
    );
    insta::assert_snapshot!(
        "external_imports",
        show(external_imports(&ctx, 15).await.unwrap())
    );
    insta::assert_snapshot!(
        "files_at",
        show(files_at(&ctx, &["README.md"]).await.unwrap())
    );
    insta::assert_snapshot!("top_level", show(top_level(&ctx).await.unwrap()));
}

/// `SearchFilter::admits` (paths from a trigram index) agrees with `SearchFilter::predicate`
/// (paths from the files table) on every filter and path here.
#[tokio::test]
async fn filter_admits_what_its_predicate_admits() {
    use datafusion::arrow::array::{Array, RecordBatch, StringArray};
    use datafusion::arrow::datatypes::{DataType, Field, Schema};
    let paths = [
        "src/lib.rs",
        "src/lib.rs.bak",
        "src",
        "srcx/a.rs",
        "docs/README.md",
        "docs/Guide.MDX",
        "a/b/c.PY",
        "notes.markdown",
        "Makefile",
        "src/deep/x.md",
        "./odd",
        "é/ü.rs",
    ];
    let schema = Arc::new(Schema::new(vec![Field::new("path", DataType::Utf8, false)]));
    let batch = RecordBatch::try_new(
        schema.clone(),
        vec![Arc::new(StringArray::from(paths.to_vec()))],
    )
    .unwrap();
    let ctx = SessionContext::new();
    ctx.register_table(
        "p",
        Arc::new(MemTable::try_new(schema, vec![vec![batch]]).unwrap()),
    )
    .unwrap();
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let filters = [
        SearchFilter {
            paths: s(&["src"]),
            extensions: vec![],
            exclude_markdown: false,
        },
        SearchFilter {
            paths: s(&["./src/", "docs"]),
            extensions: vec![],
            exclude_markdown: true,
        },
        SearchFilter {
            paths: vec![],
            extensions: s(&["rs", ".PY"]),
            exclude_markdown: false,
        },
        SearchFilter {
            paths: vec![],
            extensions: vec![],
            exclude_markdown: true,
        },
        SearchFilter {
            paths: s(&["/"]),
            extensions: vec![],
            exclude_markdown: false,
        },
        SearchFilter {
            paths: s(&["src/lib.rs"]),
            extensions: s(&["rs"]),
            exclude_markdown: true,
        },
    ];
    for f in &filters {
        let mut expected: Vec<&str> = paths.iter().copied().filter(|p| f.admits(p)).collect();
        expected.sort();
        let df = ctx.table("p").await.unwrap();
        let df = match f.predicate() {
            Some(p) => df.filter(p).unwrap(),
            None => df,
        };
        let batches = df.collect().await.unwrap();
        let mut got: Vec<String> = batches
            .iter()
            .flat_map(|b| {
                let a = b.column(0).as_any().downcast_ref::<StringArray>().unwrap();
                (0..a.len())
                    .map(|i| a.value(i).to_string())
                    .collect::<Vec<_>>()
            })
            .collect();
        got.sort();
        assert_eq!(got, expected, "{f:?}");
    }
}
