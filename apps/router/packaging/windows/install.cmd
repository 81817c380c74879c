@echo off
rem Installs (or re-installs) the Radflow router @VERSION@ on Windows. Run from an administrator
rem command prompt in the unpacked folder. Needs Node.js 20 or newer (node --version).
rem The router runs at start-up as a scheduled task under SYSTEM (no download of a service wrapper);
rem to run it as a real Windows service with NSSM instead, see nssm.txt.
setlocal
set HERE=%~dp0
set PREFIX=%ProgramData%\RadflowRouter
set VERSION=@VERSION@

where node >nul 2>nul || (echo Node.js 20 or newer is needed: install it first. & exit /b 1)
for /f %%m in ('node -p "process.versions.node.split('.')[0]"') do set NODE_MAJOR=%%m
if %NODE_MAJOR% LSS 20 (echo Node.js 20 or newer is needed. & exit /b 1)

mkdir "%PREFIX%\versions\%VERSION%" 2>nul
mkdir "%PREFIX%\data" 2>nul
xcopy /E /I /Y /Q "%HERE%app" "%PREFIX%\versions\%VERSION%" >nul
copy /Y "%HERE%launcher.mjs" "%PREFIX%\" >nul
copy /Y "%HERE%run-router.cmd" "%PREFIX%\" >nul
> "%PREFIX%\current" echo %VERSION%

schtasks /Create /F /TN "Radflow router" /SC ONSTART /RU SYSTEM /RL HIGHEST /TR "\"%PREFIX%\run-router.cmd\""
schtasks /Run /TN "Radflow router"
echo Radflow router %VERSION% installed in %PREFIX% (task "Radflow router").
