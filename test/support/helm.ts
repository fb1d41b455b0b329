/**
 * The Helm 3 binary the render tests run, from the product's render module (HELM, the toolchain copy, or helm on
 * PATH), with one addition for tests: identical requests are rendered once per test process, because the tier
 * renders the same release for several rules.
 */
import { helmTemplate as render, TemplateRequest, TemplateResult } from "../../render/helm";

export { HELM_FIX, HELM_PACKAGE, helmBinary, HelmMissingError, ROOT } from "../../render/helm";
export type { TemplateRequest, TemplateResult } from "../../render/helm";

const cache = new Map<string, Promise<TemplateResult>>();

/** `helm template` of one release; identical requests are rendered once per test process. */
export function helmTemplate(req: TemplateRequest): Promise<TemplateResult> {
    const key = JSON.stringify(req);
    let hit = cache.get(key);
    if (!hit) {
        hit = render(req);
        cache.set(key, hit);
    }
    return hit;
}
