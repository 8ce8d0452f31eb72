/** Types of packages.mjs, for the TypeScript tests that use it. */
export declare const ROOT: string;
export interface WorkspacePackage {
  dir: string;
  manifest: { name: string; version: string; exports?: Record<string, unknown>; [key: string]: unknown };
}
export declare function workspacePackages(root?: string): WorkspacePackage[];
export declare function entryPoints(manifest: WorkspacePackage['manifest']): string[];
export declare function run(
  command: string,
  args: string[],
  options: { cwd: string; timeoutMs?: number; env?: Record<string, string> },
): Promise<{ stdout: string; stderr: string }>;
export interface PackedPackage {
  name: string;
  version: string;
  tarball: string;
  files: string[];
}
export declare function buildPackages(): Promise<void>;
export declare function packPackages(dirs: string[], destination: string): Promise<PackedPackage[]>;
export declare function installInto(project: string, specs: string[]): Promise<void>;
export declare function createProject(project: string): Promise<void>;
export declare function addTo(project: string, specs: string[]): Promise<void>;
export declare function lintTarball(tarball: string): Promise<void>;
export declare function measureTree(
  nodeModules: string,
): Promise<{ packages: number; sizeMB: number; diskMB: number }>;
