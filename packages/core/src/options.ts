/**
 * Option objects are checked for unknown keys: a misspelt option (`requestTimout`, `maskErrors`)
 * would otherwise be ignored in silence and the default applied, which is the worst way to learn
 * of a typo in a security or timeout setting.
 * @module
 */

/**
 * Throws a `TypeError` naming the first key of `options` that `known` does not list.
 *
 * @throws {TypeError} for an unknown key.
 * @example
 * ```ts
 * rejectUnknownOptions({ requestTimout: 5 }, { requestTimeout: true }, 'Client');
 * // TypeError: Client: unknown option "requestTimout" (known: requestTimeout)
 * ```
 */
export function rejectUnknownOptions(
  options: object,
  known: Readonly<Record<string, true>>,
  owner: string,
): void {
  for (const key of Object.keys(options)) {
    if (!Object.hasOwn(known, key)) {
      throw new TypeError(`${owner}: unknown option "${key}" (known: ${Object.keys(known).join(', ')})`);
    }
  }
}
