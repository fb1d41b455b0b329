/**
 * The marks the platform puts on every namespace and cluster-scoped object it creates, by which it later tells its own
 * objects from everyone else's: the label `app.kubernetes.io/part-of: mara` (the platform's, since its first version)
 * and the annotation `mara.nginx.com/stack: <project>/<stack>` (which stack made it). Plain data: the guard's dynamic
 * provider and `mara doctor` read them too.
 */

/** The label every object of the platform carries (Kubernetes' recommended `part-of` label). */
export const PART_OF_LABEL = "app.kubernetes.io/part-of";
/** The value of {@link PART_OF_LABEL} on the platform's objects. */
export const PART_OF_VALUE = "mara";
/** The annotation naming the stack that made an object: `<project>/<stack>`. */
export const STACK_ANNOTATION = "mara.nginx.com/stack";

/** Labels every namespace of the platform carries. */
export const PLATFORM_LABELS = { [PART_OF_LABEL]: PART_OF_VALUE } as const;

/** The identity a stack marks its objects with: `<project>/<stack>`, as `pulumi.getProject()` and `pulumi.getStack()` name them. */
export function stackIdentity(project: string, stack: string): string {
    return `${project}/${stack}`;
}

/** The labels and annotations of an object the stack `identity` creates, added to its own. */
export function withOwnershipMarks<M extends { labels?: Record<string, string>; annotations?: Record<string, string> }>(metadata: M, identity: string): M {
    return {
        ...metadata,
        labels: { ...metadata.labels, ...PLATFORM_LABELS },
        annotations: { ...metadata.annotations, [STACK_ANNOTATION]: identity },
    };
}
