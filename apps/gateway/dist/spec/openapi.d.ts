/** A JSON value of the bundled spec. */
export type SpecNode = Record<string, unknown>;
/** The bundled registry spec (dereferenced: every schema inline), as every consumer reads it. */
export declare const openapi: SpecNode;
/** The bundled sandbox control plane spec (dereferenced). */
export declare const sandbox: SpecNode;
interface CatalogueEntry {
    status: number;
    title: string;
    when: string;
}
/** The problem code catalogue of the spec: the gateway's one error registry. */
export declare const problemCatalogue: Record<string, CatalogueEntry>;
/** A component schema of the registry spec, by name. */
export declare function componentSchema(name: string): SpecNode;
/** One operation of a spec document, located by path and method. */
export interface OperationSpec {
    operationId: string;
    method: string;
    path: string;
    operation: SpecNode;
}
/** Every operation of a document, in document order. */
export declare function operationsOf(document: SpecNode): OperationSpec[];
export {};
