/** Fluent Bit's classic configuration format, for the log agent's sections and parsers. */

/** One section of Fluent Bit's classic configuration format, keys aligned. */
export function section(kind: string, entries: Record<string, string>): string {
    const width = Math.max(...Object.keys(entries).map((k) => k.length)) + 1;
    return [`[${kind}]`, ...Object.entries(entries).map(([k, v]) => `    ${k.padEnd(width)}${v}`)].join("\n") + "\n";
}
