//! Histogram of Grundy values (exploration helper): `grundy_hist SPEC N`.
use heaplab_core::{grundy_table, Game};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let n = heaplab_core::num::parse_count(&a[2]).unwrap();
    let t = grundy_table(&Game::parse(&a[1]).unwrap(), n).unwrap();
    let mut h = vec![0u64; t.max_value() as usize + 1];
    for i in n / 2..=n {
        h[t.get(i) as usize] += 1;
    }
    let tot = (n - n / 2 + 1) as f64;
    let mut v: Vec<(u64, usize)> = h.iter().copied().enumerate().map(|(i, c)| (c, i)).collect();
    v.sort_unstable_by(|a, b| b.cmp(a));
    let mut cum = 0.0;
    for (k, (c, i)) in v.iter().enumerate().take(40) {
        cum += *c as f64 / tot;
        println!("#{k} value {i}: {:.4} cum {:.3}", *c as f64 / tot, cum);
    }
}
