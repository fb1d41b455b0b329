/** The vendored chart archives, read through the product's render module (see cli/render/charts.ts). */
export { archiveName, CHARTS_DIR, chartContents, crdsIn, parseManifest, recordedChecksums, sha256, vendoredChart } from "../../cli/render/charts";
export type { ChartContents } from "../../cli/render/charts";
export { isMap, type KubeObject } from "../../contracts/kubeObject";
