/**
 * The reason a tool failed, for a person who does not read English: an MCP server that stopped
 * mid-call says so (and whether it was restarted), not only "it failed".
 */
import { afterEach, describe, expect, it } from 'vitest';
import { toolFailureText } from '../../src/cli/render/tool-failure.js';
import { setLanguage } from '../../src/support/i18n/index.js';

afterEach(() => setLanguage('en'));

const restarted =
  'Error: The MCP server "crashy" stopped while running crash (Connection closed; server said: file not found); zhi restarted it; the call was not repeated.';
const gone =
  'Error: The MCP server "crashy" stopped while running crash (Connection closed); it could not be restarted, so its tools are gone for this session (it stopped twice).';

describe('toolFailureText', () => {
  it('tells a Chinese reader an MCP server stopped and was restarted', () => {
    setLanguage('zh');
    expect(toolFailureText(restarted)).toBe(
      '它的 MCP 服务器在调用中停止了；zhi 已重新启动它（这次调用没有重做）',
    );
  });

  it('tells a Chinese reader an MCP server stopped for good', () => {
    setLanguage('zh');
    expect(toolFailureText(gone)).toBe('它的 MCP 服务器停止了，且无法重新启动：本次会话中它的工具不可用');
    expect(toolFailureText('Error: The MCP server "crashy" is not running: spawn x ENOENT.')).toBe(
      '它的 MCP 服务器没有在运行',
    );
  });

  it("an English reader gets the tool's own words", () => {
    expect(toolFailureText(restarted)).toBe(restarted.replace(/^Error: /, ''));
  });

  it('other failures keep their known reasons', () => {
    setLanguage('zh');
    expect(toolFailureText('Error: no such file: a.md')).toBe('没有找到这个文件或文件夹');
    expect(toolFailureText('Error: something odd')).toBe('失败了；已把原因告诉模型，它可能会换个方法');
  });

  it('says a call nobody could be asked about was not run, not that it failed (issue 38)', () => {
    setLanguage('zh');
    const denied =
      'Denied: this needs a person to confirm, and no one can be asked here (stdin is not a terminal). Tell the user what you wanted to do.';
    expect(toolFailureText(denied)).toBe('未运行：需要你同意，但这里无法询问（见上文）');
    expect(toolFailureText(`Error: ${denied}`)).not.toMatch(/换个方法/);
    expect(
      toolFailureText(
        'Error: The command did not run: the restricted token of shell_sandbox: restricted could not be set up (creating the restricted token failed (Windows error 5)).',
      ),
    ).toMatch(/^未运行：无法建立 shell_sandbox: restricted 所需的受限令牌/);
  });
});
