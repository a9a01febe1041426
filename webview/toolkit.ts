/**
 * Registers the @vscode/webview-ui-toolkit components the views use. Not vscode-tag, vscode-badge
 * or vscode-progress-ring: their templates carry inline style attributes, which the CSP (no
 * 'unsafe-inline') blocks and reports; plain elements styled in style.css stand in for them.
 */
import {
  provideVSCodeDesignSystem,
  vsCodeButton,
  vsCodeCheckbox,
  vsCodeDivider,
  vsCodeDropdown,
  vsCodeOption,
  vsCodePanels,
  vsCodePanelTab,
  vsCodePanelView,
  vsCodeTextArea,
  vsCodeTextField,
} from '@vscode/webview-ui-toolkit';

export function registerToolkit(): void {
  provideVSCodeDesignSystem().register(
    vsCodeButton(),
    vsCodeCheckbox(),
    vsCodeDivider(),
    vsCodeDropdown(),
    vsCodeOption(),
    vsCodePanels(),
    vsCodePanelTab(),
    vsCodePanelView(),
    vsCodeTextArea(),
    vsCodeTextField(),
  );
}
