/**
 * A Kubernetes object as JSON, and the test that a parsed value is a mapping: shared by the guardrails' rules
 * (policy/), the render and the offline checks, so each is defined once. Not exported from the contracts' index,
 * which is the library's surface: `isMap` is a helper, not a contract.
 */

/** A Kubernetes object as JSON, the way `kubectl` and the API server see it. */
export interface KubeObject {
    /** The group and version, e.g. `apps/v1` (`v1` for the core group). */
    apiVersion: string;
    /** The kind, e.g. `Deployment`. */
    kind: string;
    /** The object's name, namespace, labels and annotations, where it has them. */
    metadata?: { name?: string; namespace?: string; annotations?: Record<string, string>; labels?: Record<string, string> };
    [key: string]: unknown;
}

/** Whether a parsed YAML or JSON value is a mapping (not null, not a list). */
export const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
