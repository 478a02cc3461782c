import { defineMessages } from '../define.js';

// Reasons the shell policy gives for the refusals of issue 23 point 8 (program-checks.ts,
// script-files.ts). Shown to the person and passed to the model in the same words.
export const policy = defineMessages(
  {
    'shell.refuse.later':
      'it sets up a command to run later, outside this conversation ({program}), where nobody checks or sees it',
    'shell.refuse.detached':
      'it starts a command that keeps running on its own ({program}), outside this conversation and its time limit',
    'shell.refuse.remote':
      'it runs a command through {program} on another computer (or this one), where it cannot be checked',
    'shell.refuse.system': 'it changes how the running system works ({program})',
    'shell.refuse.startup':
      'it changes {target}, a file that runs commands when you log in or a program starts, or that grants access to this computer',
    'shell.refuse.scriptUnseen':
      'it runs the script {file}, whose content cannot be checked (it cannot be read, or the same command writes it first); show the lines you want to run instead',
    'shell.refuse.outputScript':
      'it runs {file}, a file in the output folder that was written during this work; its content is not checked before it runs, so run the commands themselves instead',
    'shell.refuse.codeVariable':
      'it sets {name}, which makes programs run a command or load code named in it, which cannot be checked',
    'shell.refuse.intoHome':
      'it copies or unpacks a whole folder into your home folder ({target}), where it may replace the files that run when you log in',
    'shell.refuse.power':
      'it shuts down or restarts the computer, which would lose unsaved work; do that yourself when you are ready',
  },
  {
    'shell.refuse.later': '它会设置一条稍后在这次对话之外运行的命令（{program}），那时没有人检查或看到它',
    'shell.refuse.detached': '它会启动一条自行继续运行的命令（{program}），不受这次对话和时间限制的约束',
    'shell.refuse.remote': '它会通过 {program} 在另一台电脑（或本机）上运行命令，运行前无法检查',
    'shell.refuse.system': '它会改变正在运行的系统的工作方式（{program}）',
    'shell.refuse.startup':
      '它会修改 {target}：这个文件会在你登录或程序启动时运行命令，或授予访问这台电脑的权限',
    'shell.refuse.scriptUnseen':
      '它会运行脚本 {file}，但无法检查其内容（无法读取，或同一条命令会先写入它）；请直接给出要运行的命令',
    'shell.refuse.outputScript':
      '它会运行 {file}：这是本次工作中写入输出文件夹的文件，运行前不会检查其内容；请直接运行其中的命令',
    'shell.refuse.codeVariable': '它设置了 {name}，程序会运行其中指定的命令或加载其中的代码，运行前无法检查',
    'shell.refuse.intoHome':
      '它会把整个文件夹复制或解压到你的主文件夹（{target}），可能替换你登录时运行的文件',
    'shell.refuse.power': '它会关闭或重启电脑，未保存的工作会丢失；请在准备好后自己操作',
  },
);
