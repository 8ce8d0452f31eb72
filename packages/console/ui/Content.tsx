/**
 * A result's content blocks as a person reads them: text, images, audio, links to resources (with
 * a button that reads them), embedded resources, and anything unknown as JSON.
 * @module
 */

type Block = Record<string, any>;

/** A `data:` URL for base64 data of a MIME type, or nothing for a type the page will not show. */
function dataUrl(mimeType: unknown, data: unknown, kind: 'image' | 'audio'): string | undefined {
  if (typeof mimeType !== 'string' || typeof data !== 'string') return undefined;
  if (!mimeType.startsWith(`${kind}/`) || !/^[\w.+-]+\/[\w.+-]+$/.test(mimeType)) return undefined;
  // SVG can carry script; an <img> never runs it, but keep to raster types and audio anyway.
  if (mimeType === 'image/svg+xml') return undefined;
  return `data:${mimeType};base64,${data}`;
}

/**
 * Renders one list of content blocks.
 *
 * @example
 * ```tsx
 * <Content blocks={result.content} onRead={(uri) => read(uri)} />
 * ```
 */
export function Content(props: { blocks: readonly Block[]; onRead?: (uri: string) => void }) {
  return (
    <div class="content">
      {props.blocks.map((block, index) => (
        <ContentBlock key={index} block={block} onRead={props.onRead} />
      ))}
    </div>
  );
}

function ContentBlock({ block, onRead }: { block: Block; onRead?: ((uri: string) => void) | undefined }) {
  switch (block.type) {
    case 'text':
      return <pre class="text-block">{String(block.text)}</pre>;
    case 'image': {
      const src = dataUrl(block.mimeType, block.data, 'image');
      return src ? (
        <figure>
          <img src={src} alt={`${block.mimeType} from the server`} />
          <figcaption class="muted">{block.mimeType}</figcaption>
        </figure>
      ) : (
        <p class="muted">An image of type {String(block.mimeType)} (not shown)</p>
      );
    }
    case 'audio': {
      const src = dataUrl(block.mimeType, block.data, 'audio');
      return src ? (
        <figure>
          {/* biome-ignore lint/a11y/useMediaCaption: the server sends no captions to show */}
          <audio controls src={src} aria-label={`Audio (${block.mimeType}) from the server`} />
          <figcaption class="muted">{block.mimeType}</figcaption>
        </figure>
      ) : (
        <p class="muted">Audio of type {String(block.mimeType)} (not played)</p>
      );
    }
    case 'resource_link':
      return (
        <div class="resource-link">
          <span>
            Resource link: <strong>{String(block.name ?? block.uri)}</strong> <code>{String(block.uri)}</code>
          </span>
          {onRead ? (
            <button type="button" onClick={() => onRead(String(block.uri))}>
              Read {String(block.name ?? block.uri)}
            </button>
          ) : null}
        </div>
      );
    case 'resource':
      return <EmbeddedResource resource={block.resource ?? {}} />;
    default:
      return <pre class="json">{JSON.stringify(block, null, 2)}</pre>;
  }
}

/**
 * A resource's contents (embedded in a result, or read): text as text, an image blob as an
 * image, other blobs by their size.
 *
 * @example
 * ```tsx
 * <EmbeddedResource resource={{ uri: 'demo://readme', text: 'Hello' }} />
 * ```
 */
export function EmbeddedResource({ resource }: { resource: Block }) {
  const image = dataUrl(resource.mimeType, resource.blob, 'image');
  return (
    <div class="embedded">
      <div class="muted">
        <code>{String(resource.uri)}</code> {resource.mimeType ? `(${resource.mimeType})` : ''}
      </div>
      {typeof resource.text === 'string' ? (
        <pre class="text-block">{resource.text}</pre>
      ) : image ? (
        <img src={image} alt={`Resource ${resource.uri}`} />
      ) : typeof resource.blob === 'string' ? (
        <p class="muted">Binary, {Math.floor((resource.blob.length * 3) / 4)} bytes</p>
      ) : null}
    </div>
  );
}
