/**
 * Faults a test scripts into a fake cloud API at the HTTP level: the next N requests matching a method
 * and path get a given status, headers and body instead of their answer, as the real API sends them
 * (a 429 with `Retry-After`, a 5xx). Each fake decides the body's shape, which its API documents.
 */

/** One scripted answer that replaces the real one. */
export interface HttpFault {
    readonly method: string;
    readonly path: RegExp;
    left: number;
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
}

/** The faults of one fake API. */
export class HttpFaults {
    private readonly faults: HttpFault[] = [];

    /**
     * The next `times` requests of `method` to a path matching `path` are answered with `status`.
     * @param headers e.g. `{ "retry-after": "30" }`
     */
    add(method: string, path: RegExp, times: number, status: number, headers: Record<string, string> = {}): void {
        this.faults.push({ method, path, left: times, status, headers });
    }

    /** The fault that answers this request, if one is left (it is used up). */
    take(method: string, path: string): HttpFault | undefined {
        const f = this.faults.find((x) => x.left > 0 && x.method === method && x.path.test(path));
        if (f) f.left--;
        return f;
    }

    /** How many scripted faults have not struck yet. */
    pending(): number {
        return this.faults.reduce((n, f) => n + f.left, 0);
    }
}
