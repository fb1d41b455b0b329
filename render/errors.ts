/** A render that cannot produce correct manifests; the message says what and how to fix it. */
export class RenderError extends Error {
    constructor(message: string) {
        super(message);
        this.name = "RenderError";
    }
}
