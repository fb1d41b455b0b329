/** "Did you mean …?" for mistyped config keys and values. */

/**
 * Levenshtein distance between two strings; with `limit`, any distance above it is reported as `limit + 1` as soon as
 * it is certain, so comparing a name against a long list costs little more than the candidates that could match.
 */
export function editDistance(a: string, b: string, limit = Infinity): number {
    if (Math.abs(a.length - b.length) > limit) return limit + 1;
    let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
        const cur = [i];
        let rowMin = i;
        for (let j = 1; j <= b.length; j++) {
            cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
            if (cur[j]! < rowMin) rowMin = cur[j]!;
        }
        // Every later row is at least this row's minimum: past the limit, nothing can come back under it.
        if (rowMin > limit) return limit + 1;
        prev = cur;
    }
    return prev[b.length]!;
}

/** Character counts of a string, in a few buckets: half their difference is a lower bound of the edit distance. */
function histogram(text: string): Uint16Array {
    const h = new Uint16Array(32);
    for (let i = 0; i < text.length; i++) h[text.charCodeAt(i) & 31]!++;
    return h;
}

/** A candidate list prepared once (the key tables are compared against many times): lower-cased, with histograms. */
const prepared = new WeakMap<readonly string[], { readonly lower: readonly string[]; readonly hist: readonly Uint16Array[] }>();

/**
 * The candidate closest to `input`, if it is close enough to be a plausible typo: at most a third of
 * the input's length away (at least two), compared case-insensitively. The first of equally close candidates wins.
 * Candidates that cannot beat the best so far are ruled out by their length and their letters before any distance is
 * computed, so checking thousands of names against the key table stays fast.
 */
export function closest(input: string, candidates: readonly string[]): string | undefined {
    let prep = prepared.get(candidates);
    if (!prep) {
        const lower = candidates.map((c) => c.toLowerCase());
        prepared.set(candidates, (prep = { lower, hist: lower.map(histogram) }));
    }
    const target = input.toLowerCase();
    const targetHist = histogram(target);
    let best: string | undefined;
    // Only a candidate nearer than the best so far (and within the limit) can change the answer.
    let bound = Math.max(2, Math.floor(input.length / 3)) + 1;
    for (let i = 0; i < prep.lower.length; i++) {
        const c = prep.lower[i]!;
        if (Math.abs(c.length - target.length) >= bound) continue;
        let diff = 0;
        const h = prep.hist[i]!;
        for (let k = 0; k < 32; k++) diff += Math.abs(h[k]! - targetHist[k]!);
        if (Math.ceil(diff / 2) >= bound) continue;
        const d = editDistance(target, c, bound - 1);
        if (d < bound) {
            best = candidates[i];
            bound = d;
        }
    }
    return best;
}
