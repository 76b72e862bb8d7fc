// What the page says of its connection: reconnecting after a blip, and — once the server said it
// stops (close 1001, ws-transport.ts) — that the server stopped and where to go when it is back.
import { describe, expect, it } from 'vitest';
import { App } from './app.tsx';
import type { ConnectionStatus } from './transport/transport.ts';
import { renderStatic } from './testing.tsx';

function render(status: ConnectionStatus): string {
  return renderStatic(<App />, { state: { status, hasSnapshot: true, view: 'controls' } });
}

describe('the connection banner', () => {
  it('after the server stopped, says so and to open the URL it prints when it starts again', () => {
    const html = render('stopped');
    expect(html).toContain('data-testid="server-stopped"');
    expect(html).toContain('The server stopped.');
    expect(html).toContain('When it starts again, open the URL it prints');
    expect(html).not.toContain('reconnecting');
    expect(html).toContain('data-status="stopped"');
    expect(html).toContain('server stopped</span>');
  });

  it('after a dropped connection, still says it reconnects', () => {
    const html = render('closed');
    expect(html).toContain('data-testid="disconnected-banner"');
    expect(html).toContain('Disconnected from the engine — reconnecting.');
    expect(html).not.toContain('server-stopped');
  });
});
