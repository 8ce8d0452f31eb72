/**
 * The list methods a session records: the array each answers with and the field that names each
 * of its items (what a comparison keys items by, and what a host's catalogue renames).
 * @module
 */

/**
 * Each list method's array and the field that names its items.
 *
 * @example
 * ```ts
 * const [key, nameField] = LIST_METHODS['resources/list']; // ['resources', 'uri']
 * ```
 */
export const LIST_METHODS: Readonly<Record<string, readonly [key: string, nameField: string]>> = {
  'tools/list': ['tools', 'name'],
  'resources/list': ['resources', 'uri'],
  'resources/templates/list': ['resourceTemplates', 'uriTemplate'],
  'prompts/list': ['prompts', 'name'],
};
