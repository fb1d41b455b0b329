/** The vendored chart archives, read through the product's render module (see render/charts.ts). */
export { archiveName, CHARTS_DIR, chartContents, crdsIn, parseManifest, recordedChecksums, sha256, vendoredChart } from "../../render/charts";
export type { ChartContents } from "../../render/charts";
export { isMap, type KubeObject } from "../../contracts/kubeObject";
