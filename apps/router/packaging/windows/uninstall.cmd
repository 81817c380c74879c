@echo off
rem Stops and removes the Radflow router task. The data folder (%ProgramData%\RadflowRouter\data)
rem is kept: it holds the images not yet uploaded.
schtasks /End /TN "Radflow router" 2>nul
schtasks /Delete /F /TN "Radflow router"
